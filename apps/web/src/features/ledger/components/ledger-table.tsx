import { Anchor, Badge, Button, Text } from '@mantine/core';
import { SYSTEM_ACTOR_EMAIL } from '@sf/contract/audit';
import type { LedgerListEntry, LedgerPage, LedgerSystemReason } from '@sf/contract/ledger';
import type { TFunction } from 'i18next';
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
  /** Where a social bonus's proof is seen (Approvazioni); without it the bonus is named, not linked. */
  proofHref?: ((proof: NonNullable<LedgerListEntry['proof']>, cardNumber: string) => string) | undefined;
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

/**
 * At 1366 px the table has 1074 px beside the menu. The free texts (a customer's name, a program's or
 * merchant's, a reason, an operator's name) are cut to their column, whole on hover, and their columns
 * take these shares of the table: no entry on the page can widen them, and with the fixed-size cells
 * (date, badge, figures, the reversal button: ~520 px) the table stays within 1074 px whatever names the
 * page holds (measured: 1,025 px at least with the longest names of the Italian journey).
 */
const CUSTOMER_WIDTH = '18%';
const PROGRAM_WIDTH = '20%';
const REASON_WIDTH = '14%';
/** On a customer's own page (no customer column) the reason takes the customer's share too. */
const REASON_WIDTH_ALONE = '30%';

/**
 * "Bonus condivisione social (prova n. 5)", leading to the proof in Approvazioni when there is a way
 * there. Our own short words, so they wrap within the column (whole words) instead of being cut as a
 * free-text reason is: cut, they read "Bonus condivisi…" at 1366 px.
 */
function ProofReason({ proof, href }: { proof: NonNullable<LedgerListEntry['proof']>; href: string | null }) {
  const { t } = useTranslation('ledger');
  const text = t(`proofBonus.${proof.kind}`, { id: proof.id });
  return href ? (
    <Anchor component={Link} to={href} size="sm" display="block">
      {text}
    </Anchor>
  ) : (
    <Text size="sm">{text}</Text>
  );
}

const customerName = (customer: NonNullable<LedgerListEntry['customer']>) => `${customer.firstName} ${customer.lastName}`.trim();

/**
 * A reason the platform wrote itself (a referral or birthday bonus, a till's receipt, an import's
 * opening balance) in the reader's words, whatever language it was stored in.
 */
function systemReasonText(reason: LedgerSystemReason, t: TFunction<'ledger'>): string {
  switch (reason.kind) {
    case 'birthday':
      return t('systemReason.birthday', { year: reason.year });
    case 'receipt':
      return t('systemReason.receipt', { receipt: reason.receipt });
    default:
      return t(`systemReason.${reason.kind}`);
  }
}

/** Who made it: a staff member by name (the e-mail on hover), the system in words, an API key by its label. */
function operatorOf(entry: LedgerListEntry, t: TFunction<'ledger'>): { text: string; title: string } {
  if (entry.createdByName) return { text: entry.createdByName, title: `${entry.createdByName} (${entry.createdByLabel})` };
  const text = entry.createdByLabel === SYSTEM_ACTOR_EMAIL ? t('madeBy.system') : entry.createdByLabel;
  return { text, title: text };
}

function Operator({ entry }: { entry: LedgerListEntry }) {
  const { t } = useTranslation('ledger');
  const { text, title } = operatorOf(entry, t);
  return (
    <TruncatedText text={title} fill>
      {text}
    </TruncatedText>
  );
}

/** Ledger entries with their signed points/stamps and, per entry, a confirmed reversal. */
export function LedgerTable({ query, params, onChange, names, isFiltered, caption }: Props) {
  const { t } = useTranslation('ledger');
  const format = useFormatters();
  const canWrite = useCan('ledger:write');
  const [reversing, setReversing] = useState<LedgerListEntry | null>(null);
  const signed = (value: number) => (value > 0 ? `+${format.number(value)}` : format.number(value));

  const columns = useMemo<DataTableColumn<LedgerListEntry, 'createdAt'>[]>(() => {
    const all: (DataTableColumn<LedgerListEntry, 'createdAt'> | null)[] = [
      {
        id: 'createdAt',
        header: t('columns.createdAt'),
        sortField: 'createdAt',
        // The day, and the time under it: "26/11/2026, 21:53" on one line took a column of its own width.
        cell: (entry) => (
          <span title={format.dateTime(entry.createdAt)} style={NO_WRAP}>
            {format.date(entry.createdAt)}
            <Text component="span" display="block" size="xs" c="dimmed">
              {format.time(entry.createdAt)}
            </Text>
          </span>
        ),
      },
      names.customerHref
        ? {
            id: 'customer',
            header: t('columns.customer'),
            width: CUSTOMER_WIDTH,
            // Whose entry it is, as staff know them: name (one line, whole on hover) and card under it.
            // An erased customer's entries stay (their figures are the ledger's) under a name that says so.
            cell: (entry) =>
              entry.customer ? (
                <>
                  <TruncatedText text={customerName(entry.customer)} fill>
                    <Anchor component={Link} to={names.customerHref!(entry.customerId)} size="sm">
                      {customerName(entry.customer)}
                    </Anchor>
                  </TruncatedText>
                  <Text size="xs" c="dimmed" ff="monospace" style={NO_WRAP}>
                    {entry.customer.cardNumber}
                  </Text>
                </>
              ) : (
                <Anchor component={Link} to={names.customerHref!(entry.customerId)} size="sm" fs="italic" style={NO_WRAP}>
                  {t('erasedCustomer')}
                </Anchor>
              ),
          }
        : null,
      {
        id: 'program',
        header: t('columns.program'),
        width: PROGRAM_WIDTH,
        // The program, and under it the merchant where the entry was made (none for bonuses and adjustments).
        cell: (entry) => (
          <>
            <TruncatedText text={names.program(entry.programId)} fill />
            {entry.merchantId ? (
              <Text component="div" size="xs" c="dimmed">
                <TruncatedText text={names.merchant(entry.merchantId)} fill />
              </Text>
            ) : null}
          </>
        ),
      },
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
      {
        id: 'points',
        header: t('columns.points'),
        isNumeric: true,
        // One column for both: an entry moves points or stamps (rarely both, then one under the other).
        cell: (entry) =>
          entry.points === 0 && entry.stamps === 0 ? (
            '—'
          ) : (
            <>
              {entry.points !== 0 ? <div>{t('amounts.points', { value: signed(entry.points) })}</div> : null}
              {entry.stamps !== 0 ? <div>{t('amounts.stamps', { value: signed(entry.stamps), count: Math.abs(entry.stamps) })}</div> : null}
            </>
          ),
      },
      { id: 'amount', header: t('columns.amount'), isNumeric: true, cell: (entry) => (entry.amountCents === null ? '—' : format.currency(entry.amountCents / 100)) },
      {
        id: 'reason',
        header: t('columns.reason'),
        width: names.customerHref ? REASON_WIDTH : REASON_WIDTH_ALONE,
        // Free text: one line each, whole on hover; who made the entry under its reason. A social bonus
        // is named by its proof in the reader's words (its stored reason may be an old `share #5`), and
        // any other reason the platform wrote by its systemReason.
        cell: (entry) => (
          <>
            {entry.proof ? (
              <ProofReason proof={entry.proof} href={entry.customer && names.proofHref ? names.proofHref(entry.proof, entry.customer.cardNumber) : null} />
            ) : entry.systemReason ? (
              // Our own short words, wrapped whole like a social bonus's, not cut as free text is.
              <Text size="sm">{systemReasonText(entry.systemReason, t)}</Text>
            ) : (
              <TruncatedText text={entry.reason ?? '—'} fill />
            )}
            <Text component="div" size="xs" c="dimmed">
              <Operator entry={entry} />
            </Text>
          </>
        ),
      },
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
