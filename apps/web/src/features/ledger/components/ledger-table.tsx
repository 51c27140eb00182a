import { Anchor, Badge, Button, Text } from '@mantine/core';
import type { LedgerListEntry, LedgerPage } from '@sf/contract/ledger';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../components/can.tsx';
import { DataTable, type DataTableColumn, type DataTableParams } from '../../../components/ui/data-table.tsx';
import { TruncatedText } from '../../../components/ui/truncated-text.tsx';
import { useFormatters } from '../../../lib/format.ts';
import { ReverseDialog } from './reverse-dialog.tsx';

const KIND_COLORS: Record<LedgerListEntry['kind'], string> = { earn: 'green', redeem: 'blue', adjust: 'grape', expire: 'gray', reversal: 'orange' };

export type LedgerNames = {
  program: (id: string) => string;
  merchant: (id: string) => string;
  /** Where a customer's page lives; null hides the customer column (on the customer's own page). */
  customerHref: ((id: string) => string) | null;
};

type Props = {
  query: { data?: LedgerPage | undefined; isError: boolean; isFetching: boolean; refetch?: () => unknown };
  params: DataTableParams<'createdAt'>;
  onChange: (patch: DataTableParams<'createdAt'>) => void;
  names: LedgerNames;
  isFiltered?: boolean;
  caption: string;
};

const getRowId = (entry: LedgerListEntry) => String(entry.id);

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** Ledger entries with their signed points/stamps and, per entry, a confirmed reversal. */
export function LedgerTable({ query, params, onChange, names, isFiltered, caption }: Props) {
  const { t } = useTranslation('ledger');
  const format = useFormatters();
  const canWrite = useCan('ledger:write');
  const [reversing, setReversing] = useState<LedgerListEntry | null>(null);
  const signed = (value: number) => (value > 0 ? `+${format.number(value)}` : format.number(value));

  const columns = useMemo<DataTableColumn<LedgerListEntry, 'createdAt'>[]>(() => {
    const all: (DataTableColumn<LedgerListEntry, 'createdAt'> | null)[] = [
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', cell: (entry) => format.dateTime(entry.createdAt) },
      names.customerHref
        ? {
            id: 'customer',
            header: t('columns.customer'),
            // Whose entry it is, as staff know them: name and card. An erased customer's entries stay
            // (their figures are the ledger's) under a name that says so.
            cell: (entry) =>
              entry.customer ? (
                <>
                  <Anchor component={Link} to={names.customerHref!(entry.customerId)} size="sm">
                    {`${entry.customer.firstName} ${entry.customer.lastName}`.trim()}
                  </Anchor>
                  <Text size="xs" c="dimmed" ff="monospace" style={NO_WRAP}>
                    {entry.customer.cardNumber}
                  </Text>
                </>
              ) : (
                <Anchor component={Link} to={names.customerHref!(entry.customerId)} size="sm" fs="italic">
                  {t('erasedCustomer')}
                </Anchor>
              ),
          }
        : null,
      { id: 'program', header: t('columns.program'), cell: (entry) => names.program(entry.programId) },
      { id: 'merchant', header: t('columns.merchant'), cell: (entry) => (entry.merchantId ? names.merchant(entry.merchantId) : '—') },
      {
        id: 'kind',
        header: t('columns.kind'),
        cell: (entry) => (
          <>
            <Badge color={KIND_COLORS[entry.kind]} variant="light">
              {t(`kind.${entry.kind}`)}
            </Badge>
            <Text size="xs" c="dimmed">
              {t(`source.${entry.source}`)}
            </Text>
          </>
        ),
      },
      { id: 'points', header: t('columns.points'), isNumeric: true, cell: (entry) => (entry.points === 0 ? '—' : signed(entry.points)) },
      { id: 'stamps', header: t('columns.stamps'), isNumeric: true, cell: (entry) => (entry.stamps === 0 ? '—' : signed(entry.stamps)) },
      { id: 'amount', header: t('columns.amount'), isNumeric: true, cell: (entry) => (entry.amountCents === null ? '—' : format.currency(entry.amountCents / 100)) },
      // Free text: one line each, whole on hover, so the table fits 1366 px with its actions.
      { id: 'reason', header: t('columns.reason'), cell: (entry) => (entry.reason ? <TruncatedText text={entry.reason} maxWidth={90} /> : '—') },
      { id: 'by', header: t('columns.by'), cell: (entry) => <TruncatedText text={entry.createdByLabel} maxWidth={90} /> },
      {
        id: 'actions',
        header: t('columns.actions'),
        cell: (entry) =>
          entry.reversedById !== null ? (
            <Badge color="gray" variant="outline">
              {t('reversed')}
            </Badge>
          ) : canWrite && entry.kind !== 'reversal' && entry.kind !== 'expire' ? (
            <Button size="xs" variant="light" color="orange" onClick={() => setReversing(entry)} aria-label={t('reverse.label', { id: entry.id })} style={{ flexShrink: 0 }}>
              {t('reverse.button')}
            </Button>
          ) : null,
      },
    ];
    return all.filter((column): column is DataTableColumn<LedgerListEntry, 'createdAt'> => column !== null);
  }, [t, format, names, canWrite]);

  return (
    <>
      <DataTable
        caption={caption}
        columns={columns}
        query={query}
        params={params}
        onChange={onChange}
        getRowId={getRowId}
        emptyText={t('empty')}
        isFiltered={isFiltered ?? false}
        errorTitle={t('errorTitle')}
        // What the screen has beside the menu at 1366 px: no horizontal scroll, "Storna" in view.
        minWidth={900}
      />
      <ReverseDialog entry={reversing} onClose={() => setReversing(null)} />
    </>
  );
}
