import { Modal, Stack, Table, Text } from '@mantine/core';
import type { AuditListEntry } from '@sf/contract/audit';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { InAppLink } from '../../../components/ui/in-app-link.tsx';
import { SidewaysScroll } from '../../../components/ui/sideways-scroll.tsx';
import { useDescribeChange } from '../../../lib/describe-change.ts';
import { useFormatters } from '../../../lib/format.ts';
import { isLanguage } from '../../../lib/i18n.ts';
import { fieldName, showValue, type AuditWordsContext, type IdNames, type ShownValue } from '../lib/audit-words.ts';
import { recordName, recordPage, recordText } from '../lib/audit-records.ts';

/**
 * The fields a change touched: each key of before/after whose value differs. A field absent on one
 * side and empty (null) on the other did not change: both read "—" (a creation's empty fields).
 */
export function changedFields(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
  const b = asObject(before);
  const a = asObject(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  return keys.filter((key) => JSON.stringify(b[key] ?? null) !== JSON.stringify(a[key] ?? null)).map((field) => ({ field, before: b[field], after: a[field] }));
}

/** The words of the dialog's values: the catalogues, the language and the user's clock and number formats. */
export function useAuditWords(): AuditWordsContext {
  const { t, i18n } = useTranslation('audit');
  const format = useFormatters();
  const language = isLanguage(i18n.language) ? i18n.language : 'it';
  return useMemo(() => ({ t, exists: (key: string) => i18n.exists(key), language, format }), [t, i18n, language, format]);
}

/** The records an entry's before/after point at, by the names the API gave them with the entry (`references`). */
function referencedNames(entry: AuditListEntry, words: AuditWordsContext): IdNames {
  return Object.fromEntries(
    Object.entries(entry.references).map(([kind, records]) => [
      kind,
      (id: string) => (Object.hasOwn(records, id) && records[id] ? recordText(records[id], kind, words) : undefined),
    ]),
  ) as IdNames;
}

/** A value in words: one line, or an object's labelled parts one under the other (indented when nested). */
export function Shown({ value }: { value: ShownValue }) {
  if (value.kind === 'text') return <Text size="sm">{value.text}</Text>;
  return (
    <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {value.parts.map((part) =>
        part.value.kind === 'text' ? (
          <Text key={part.key} size="sm" component="li">
            <Text span c="dimmed" size="sm">
              {part.label}:
            </Text>{' '}
            {part.value.text}
          </Text>
        ) : (
          <li key={part.key}>
            <Text size="sm" c="dimmed">
              {part.label}:
            </Text>
            <div style={{ paddingInlineStart: 'var(--mantine-spacing-sm)' }}>
              <Shown value={part.value} />
            </div>
          </li>
        ),
      )}
    </Stack>
  );
}

/** One audit entry: who, what, when, the record it is about, and its before/after side by side (changed fields only). */
export function AuditChange({ entry, onClose }: { entry: AuditListEntry | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const format = useFormatters();
  const describe = useDescribeChange();
  const entryWords = useAuditWords();
  const words = useMemo(() => (entry ? { ...entryWords, idNames: referencedNames(entry, entryWords) } : entryWords), [entry, entryWords]);
  const fields = entry ? changedFields(entry.before, entry.after) : [];
  const name = entry ? recordName(entry, words) : undefined;
  const page = entry ? recordPage(entry) : undefined;
  return (
    <Modal opened={entry !== null} onClose={onClose} title={t('change.title')} size="xl" closeButtonProps={{ 'aria-label': t('change.close') }}>
      {entry && (
        <Stack gap="sm">
          <Text size="sm">
            {t('change.summary', {
              who: describe.actor(entry.actorEmail),
              action: entry.action === 'read' ? t('kinds.read') : describe.action(entry.action, entry.entityType),
              entity: describe.entity(entry.entityType),
              id: name ?? entry.entityId ?? '—',
              when: format.dateTime(entry.at),
            })}
          </Text>
          {page && name && (
            <Text size="sm">
              <InAppLink to={page} size="sm" underline="always">
                {t('change.open', { name })}
              </InAppLink>
            </Text>
          )}
          {entry.action === 'read' ? (
            <Text size="sm">{t('change.read')}</Text>
          ) : fields.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('change.none')}
            </Text>
          ) : (
            <SidewaysScroll minWidth={480} tabIndex={0} role="group" aria-label={t('change.title')}>
              <Table verticalSpacing="xs" style={{ verticalAlign: 'top' }}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('change.field')}</Table.Th>
                    <Table.Th>{t('change.before')}</Table.Th>
                    <Table.Th>{t('change.after')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {fields.map((row) => (
                    <Table.Tr key={row.field}>
                      <Table.Td>{fieldName(words, row.field)}</Table.Td>
                      <Table.Td>
                        <Shown value={showValue(words, row.before, { entityType: entry.entityType, field: row.field })} />
                      </Table.Td>
                      <Table.Td>
                        <Shown value={showValue(words, row.after, { entityType: entry.entityType, field: row.field })} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </SidewaysScroll>
          )}
        </Stack>
      )}
    </Modal>
  );
}
