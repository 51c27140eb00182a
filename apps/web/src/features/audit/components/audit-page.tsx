import { Button, Group, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { listAuditQuerySchema, type AuditEntry } from '@sf/contract/audit';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ExportButton } from '../../../components/ui/export-button.tsx';
import { toApiQuery, useListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { AUDIT_PATH, useAudit } from '../api/get-audit.ts';
import { AuditChange } from './audit-change.tsx';

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

const getRowId = (entry: AuditEntry) => String(entry.id);

/** `/audit` — Pages → Audit: every change and every read of personal data, filtered, exportable. */
export function AuditPage() {
  const { t } = useTranslation('audit');
  const format = useFormatters();
  const { params, update, isFiltered } = useListParams(listAuditQuerySchema);
  const query = useAudit(toApiQuery(params));
  const [open, setOpen] = useState<AuditEntry | null>(null);

  const columns = useMemo<DataTableColumn<AuditEntry, never>[]>(
    () => [
      { id: 'at', header: t('columns.at'), cell: (entry) => format.dateTime(entry.at) },
      { id: 'actor', header: t('columns.actor'), cell: (entry) => entry.actorEmail ?? t('system') },
      { id: 'action', header: t('columns.action'), cell: (entry) => (entry.action === 'read' ? t('kinds.read') : entry.action) },
      { id: 'entity', header: t('columns.entity'), cell: (entry) => `${entry.entityType}${entry.entityId ? ` · ${entry.entityId}` : ''}` },
      {
        id: 'details',
        header: t('columns.details'),
        cell: (entry) => (
          <Button size="xs" variant="light" onClick={() => setOpen(entry)} aria-label={t('open', { what: entry.action === 'read' ? t('view') : t('compare'), id: entry.id })}>
            {entry.action === 'read' ? t('view') : t('compare')}
          </Button>
        ),
      },
    ],
    [t, format],
  );

  const kind = params.action === 'read' ? 'reads' : 'all';
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <ExportButton path={AUDIT_PATH} params={params} />
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label={t('filters.kind')}
          value={kind}
          data={[
            { value: 'all', label: t('kinds.all') },
            { value: 'reads', label: t('kinds.reads') },
          ]}
          onChange={(value) => update({ action: value === 'reads' ? 'read' : undefined })}
        />
        <TextInput label={t('filters.actor')} defaultValue={params.actor ?? ''} onBlur={(event) => update({ actor: event.currentTarget.value || undefined })} w={220} />
        <TextInput
          label={t('filters.action')}
          defaultValue={params.action && params.action !== 'read' ? params.action : ''}
          key={params.action ?? ''}
          onBlur={(event) => update({ action: event.currentTarget.value || undefined })}
          w={180}
        />
        <TextInput label={t('filters.entity')} defaultValue={params.entity ?? ''} onBlur={(event) => update({ entity: event.currentTarget.value || undefined })} w={160} />
        <TextInput type="date" label={t('filters.from')} value={dayOf(params.from)} onChange={(event) => update({ from: instantOf(event.currentTarget.value, false) })} w={160} />
        <TextInput type="date" label={t('filters.to')} value={dayOf(params.to)} onChange={(event) => update({ to: instantOf(event.currentTarget.value, true) })} w={160} />
      </Group>
      <DataTable
        caption={t('caption')}
        columns={columns}
        query={query}
        params={params}
        onChange={update}
        getRowId={getRowId}
        emptyText={t('empty')}
        isFiltered={isFiltered}
        errorTitle={t('errorTitle')}
        minWidth={900}
      />
      <AuditChange entry={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
