import { Code, Modal, Stack, Table, Text } from '@mantine/core';
import type { AuditEntry } from '@sf/contract/audit';
import { useTranslation } from 'react-i18next';
import { useDescribeChange } from '../../../lib/describe-change.ts';
import { useFormatters } from '../../../lib/format.ts';

const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));

/** The fields a change touched: each key of before/after whose value differs. */
export function changedFields(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
  const b = asObject(before);
  const a = asObject(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  return keys.filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key])).map((field) => ({ field, before: b[field], after: a[field] }));
}

/** One audit entry: who, what, when, and its before/after side by side (changed fields only). */
export function AuditChange({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const format = useFormatters();
  const describe = useDescribeChange();
  const fields = entry ? changedFields(entry.before, entry.after) : [];
  return (
    <Modal opened={entry !== null} onClose={onClose} title={t('change.title')} size="xl" closeButtonProps={{ 'aria-label': t('change.close') }}>
      {entry && (
        <Stack gap="sm">
          <Text size="sm">
            {t('change.summary', {
              who: describe.actor(entry.actorEmail),
              action: entry.action === 'read' ? t('kinds.read') : describe.action(entry.action, entry.entityType),
              entity: describe.entity(entry.entityType),
              id: entry.entityId ?? '—',
              when: format.dateTime(entry.at),
            })}
          </Text>
          {entry.action === 'read' ? (
            <Text size="sm">{t('change.read')}</Text>
          ) : fields.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('change.none')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={480} tabIndex={0} role="group" aria-label={t('change.title')}>
              <Table>
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
                      <Table.Td>{row.field}</Table.Td>
                      <Table.Td>
                        <Code>{show(row.before)}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Code>{show(row.after)}</Code>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Modal>
  );
}
