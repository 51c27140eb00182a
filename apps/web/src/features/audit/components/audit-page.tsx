import { Button, SegmentedControl, Text, TextInput } from '@mantine/core';
import { listAuditQuerySchema, type AuditListEntry } from '@sf/contract/audit';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useList } from '../../../hooks/use-list-params.ts';
import { useDescribeChange } from '../../../lib/describe-change.ts';
import { useFormatters } from '../../../lib/format.ts';
import { AUDIT_PATH, useAudit } from '../api/get-audit.ts';
import { recordName, recordPage } from '../lib/audit-records.ts';
import { AuditChange, useAuditWords } from './audit-change.tsx';

const getRowId = (entry: AuditListEntry) => String(entry.id);

/** The stored name under its words: what the Azione and Entità filters take (`ledger.` for all of the ledger's actions). */
function StoredName({ children }: { children: string }) {
  return (
    <Text size="xs" c="dimmed" ff="monospace">
      {children}
    </Text>
  );
}

/**
 * The Entità filter's choices: every kind the log names (`changes:entities`), in words and in the
 * alphabet of the reader's language, the stored name beneath as the column shows it; a kind in the
 * address that has no word yet stays choosable under its stored name.
 */
function useEntityChoices(current: string | undefined) {
  const { t, i18n } = useTranslation('changes');
  return useMemo(() => {
    const words = t('entities', { returnObjects: true }) as Record<string, string>;
    const capital = (word: string) => word.charAt(0).toLocaleUpperCase(i18n.language) + word.slice(1);
    const choices = Object.entries(words).map(([value, word]) => ({ value, label: capital(word) }));
    if (current && !Object.hasOwn(words, current)) choices.push({ value: current, label: current });
    return choices.sort((a, b) => a.label.localeCompare(b.label, i18n.language));
  }, [t, i18n.language, current]);
}

/** `/audit` — Pages → Audit: every change and every read of personal data, filtered, exportable. */
export function AuditPage() {
  const { t } = useTranslation('audit');
  const words = useAuditWords();
  const format = useFormatters();
  const describe = useDescribeChange();
  const list = useList(listAuditQuerySchema, useAudit);
  const [open, setOpen] = useState<AuditListEntry | null>(null);

  const columns = useMemo<DataTableColumn<AuditListEntry, never>[]>(
    () => [
      { id: 'at', header: t('columns.at'), cell: (entry) => format.dateTime(entry.at) },
      { id: 'actor', header: t('columns.actor'), cell: (entry) => describe.actor(entry.actorEmail) },
      {
        id: 'action',
        header: t('columns.action'),
        cell: (entry) => (
          <>
            {entry.action === 'read' ? t('kinds.read') : describe.action(entry.action, entry.entityType)}
            <StoredName>{entry.action}</StoredName>
          </>
        ),
      },
      {
        id: 'entity',
        header: t('columns.entity'),
        // A record's name as people typed it (a surname pasted as one long word) wraps inside the column.
        isName: true,
        cell: (entry) => {
          // The record by its name, opening its screen, while it exists (the API names it); else the stored id.
          const name = recordName(entry, words);
          const page = recordPage(entry);
          return (
            <>
              {describe.entity(entry.entityType)}
              {name !== undefined ? (
                <>
                  {' · '}
                  {page ? <TextLink to={page}>{name}</TextLink> : name}
                </>
              ) : (
                entry.entityId && ` · ${entry.entityId}`
              )}
              <StoredName>{entry.entityType}</StoredName>
            </>
          );
        },
      },
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
    [t, format, describe, words],
  );

  const { params, update } = list;
  const entityChoices = useEntityChoices(params.entity);
  const kind = params.action === 'read' ? 'reads' : 'all';
  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle') }}
      exportPath={AUDIT_PATH}
      filters={[
        {
          type: 'custom',
          key: 'kind',
          node: (
            <SegmentedControl
              aria-label={t('filters.kind')}
              value={kind}
              data={[
                { value: 'all', label: t('kinds.all') },
                { value: 'reads', label: t('kinds.reads') },
              ]}
              onChange={(value) => update({ action: value === 'reads' ? 'read' : undefined })}
            />
          ),
        },
        { type: 'text', field: 'actor', label: t('filters.actor'), width: 220 },
        {
          type: 'custom',
          key: 'action',
          node: (
            <TextInput
              label={t('filters.action')}
              defaultValue={params.action && params.action !== 'read' ? params.action : ''}
              key={params.action ?? ''}
              onBlur={(event) => update({ action: event.currentTarget.value || undefined })}
              w={180}
            />
          ),
        },
        { type: 'select', field: 'entity', label: t('filters.entity'), allLabel: t('filters.allEntities'), options: entityChoices, width: 200, isSearchable: true },
        { type: 'period', from: 'from', to: 'to', labels: { from: t('filters.from'), to: t('filters.to') }, width: 160, isInstant: true },
      ]}
      columns={columns}
      getRowId={getRowId}
      minWidth={900}
    >
      <AuditChange entry={open} onClose={() => setOpen(null)} />
    </ListPage>
  );
}
