import { AuditPage } from '../../features/audit/components/audit-page.tsx';

/** `/audit` — Pages → Audit (admins only). */
export function Component() {
  return <AuditPage />;
}
