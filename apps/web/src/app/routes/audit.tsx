import { useMemo } from 'react';
import { AuditPage } from '../../features/audit/components/audit-page.tsx';
import type { IdNames } from '../../features/audit/lib/audit-words.ts';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';

/** `/audit` — Pages → Audit (admins only); a change's program and merchant ids read as their names, from the shared lookups. */
export function Component() {
  const { programOptions, merchantOptions } = useLoyaltyLookups();
  const idNames = useMemo<IdNames>(() => {
    const programs = new Map(programOptions.map((option) => [option.value, option.label]));
    const merchants = new Map(merchantOptions.map((option) => [option.value, option.label]));
    return { program: (id) => programs.get(id), merchant: (id) => merchants.get(id) };
  }, [programOptions, merchantOptions]);
  return <AuditPage idNames={idNames} />;
}
