import { Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { LEDGER_KINDS, listLedgerQuerySchema, type LedgerKind } from '@sf/contract/ledger';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../../components/ui/export-button.tsx';
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

/** A calendar day of the period filter ↔ the instant the API wants (start or end of that day, local time). */
function dayOf(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
function instantOf(day: string, isEnd: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${isEnd ? '23:59:59.999' : '00:00:00.000'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** `/ledger` — Features → Movimenti: every entry with filters (customer, program, merchant, kind, period), export and reversal. */
export function LedgerPage({ programOptions, merchantOptions, names, customerFilter }: Props) {
  const { t } = useTranslation('ledger');
  const { params, update, isFiltered } = useListParams(listLedgerQuerySchema);
  const query = useLedger(toApiQuery(params));
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <ExportButton path={LEDGER_PATH} params={params} />
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {customerFilter(params.customerId, (customerId) => update({ customerId }))}
        <Select
          label={t('filters.program')}
          data={[{ value: 'all', label: t('filters.allPrograms') }, ...programOptions]}
          value={params.programId ?? 'all'}
          onChange={(value) => update({ programId: value && value !== 'all' ? value : undefined })}
          allowDeselect={false}
          w={200}
        />
        <Select
          label={t('filters.merchant')}
          data={[{ value: 'all', label: t('filters.allMerchants') }, ...merchantOptions]}
          value={params.merchantId ?? 'all'}
          onChange={(value) => update({ merchantId: value && value !== 'all' ? value : undefined })}
          allowDeselect={false}
          searchable
          w={200}
        />
        <Select
          label={t('filters.kind')}
          data={[{ value: 'all', label: t('filters.allKinds') }, ...LEDGER_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))]}
          value={params.kind ?? 'all'}
          onChange={(value) => update({ kind: value && value !== 'all' ? (value as LedgerKind) : undefined })}
          allowDeselect={false}
          w={160}
        />
        <TextInput type="date" label={t('filters.from')} value={dayOf(params.from)} onChange={(event) => update({ from: instantOf(event.currentTarget.value, false) })} w={160} />
        <TextInput type="date" label={t('filters.to')} value={dayOf(params.to)} onChange={(event) => update({ to: instantOf(event.currentTarget.value, true) })} w={160} />
      </Group>
      <LedgerTable query={query} params={params} onChange={update} names={names} isFiltered={isFiltered} caption={t('caption')} />
    </Stack>
  );
}
