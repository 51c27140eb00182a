import { Stack, Text } from '@mantine/core';
import { LEDGER_KINDS, LEDGER_SOURCES, listLedgerQuerySchema, type LedgerPage } from '@sf/contract/ledger';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFilters, ListHeader } from '../../../components/ui/list-page.tsx';
import { toApiQuery, useListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
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

/**
 * What the filtered entries add up to: how many, and their points and stamps (signed). A dashboard
 * figure links here with its filters, and this line shows that figure (decision 032).
 */
function LedgerTotals({ page }: { page: LedgerPage | undefined }) {
  const { t } = useTranslation('ledger');
  const format = useFormatters();
  if (!page) return null;
  const signed = (value: number) => (value > 0 ? `+${format.number(value)}` : format.number(value));
  return (
    <Text size="sm" data-testid="ledger-totals" aria-live="polite">
      {page.totalIsCapped
        ? t('totals.capped', { n: format.number(page.total) })
        : t('totals.entries', { count: page.total, n: format.number(page.total) })}
      {page.sums && ` · ${t('totals.points', { points: signed(page.sums.points) })} · ${t('totals.stamps', { stamps: signed(page.sums.stamps) })}`}
    </Text>
  );
}

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
          { type: 'select', field: 'source', label: t('filters.source'), allLabel: t('filters.allSources'), options: LEDGER_SOURCES.map((value) => ({ value, label: t(`source.${value}`) })), width: 160 },
          { type: 'period', from: 'from', to: 'to', labels: { from: t('filters.from'), to: t('filters.to') }, width: 160, isInstant: true },
        ]}
      />
      <LedgerTotals page={query.data} />
      <LedgerTable query={query} params={params} onChange={update} names={names} isFiltered={isFiltered} caption={t('caption')} />
    </Stack>
  );
}
