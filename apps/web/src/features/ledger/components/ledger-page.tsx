import { Stack } from '@mantine/core';
import { LEDGER_KINDS, listLedgerQuerySchema } from '@sf/contract/ledger';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFilters, ListHeader } from '../../../components/ui/list-page.tsx';
import { toApiQuery, useListParams } from '../../../hooks/use-list-params.ts';
import { LEDGER_PATH, useLedger } from '../api/get-ledger.ts';
import { LedgerTable, type LedgerNames } from './ledger-table.tsx';

type Option = { value: string; label: string };

type Props = {
  programOptions: Option[];
  merchantOptions: Option[];
  names: LedgerNames;
  /** The customer filter, composed by the route (a search over the customers list). */
  customerFilter: (value: string | undefined, onChange: (id: string | undefined) => void) => ReactNode;
};

/** `/ledger` — Features → Movimenti: every entry with filters (customer, program, merchant, kind, period), export and reversal. */
export function LedgerPage({ programOptions, merchantOptions, names, customerFilter }: Props) {
  const { t } = useTranslation('ledger');
  const { params, update, isFiltered } = useListParams(listLedgerQuerySchema);
  const query = useLedger(toApiQuery(params));
  return (
    <Stack gap="lg">
      <ListHeader title={t('title')} exportPath={LEDGER_PATH} params={params} />
      <ListFilters
        params={params}
        update={update}
        filters={[
          { type: 'custom', key: 'customer', node: customerFilter(params.customerId, (customerId) => update({ customerId })) },
          { type: 'select', field: 'programId', label: t('filters.program'), allLabel: t('filters.allPrograms'), options: programOptions, width: 200 },
          { type: 'select', field: 'merchantId', label: t('filters.merchant'), allLabel: t('filters.allMerchants'), options: merchantOptions, width: 200, isSearchable: true },
          { type: 'select', field: 'kind', label: t('filters.kind'), allLabel: t('filters.allKinds'), options: LEDGER_KINDS.map((value) => ({ value, label: t(`kind.${value}`) })), width: 160 },
          { type: 'date', field: 'from', label: t('filters.from'), width: 160, instant: 'start' },
          { type: 'date', field: 'to', label: t('filters.to'), width: 160, instant: 'end' },
        ]}
      />
      <LedgerTable query={query} params={params} onChange={update} names={names} isFiltered={isFiltered} caption={t('caption')} />
    </Stack>
  );
}
