import { Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';
import { useCustomerMessages } from '../api/get-customer-messages.ts';

/** The customer page's "Messaggi": the e-mails sent to them and what happened to each. */
export function CustomerMessagesPanel({ customerId }: { customerId: string }) {
  const { t } = useTranslation('campaigns');
  const format = useFormatters();
  const query = useCustomerMessages(customerId);
  const items = query.data?.items ?? [];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="customer-messages-title">
      <Title order={2} size="h4" id="customer-messages-title" mb="xs">
        {t('messages.title')}
      </Title>
      {query.isPending ? null : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('messages.empty')}
        </Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('messages.subject')}</Table.Th>
              <Table.Th>{t('messages.status')}</Table.Th>
              <Table.Th>{t('messages.sentAt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((message) => (
              <Table.Tr key={message.id}>
                <Table.Td>{message.subject}</Table.Td>
                <Table.Td>
                  {t(`recipientStatus.${message.status}`)}
                  {message.unsubscribedAt ? ` · ${t('messages.unsubscribed')}` : ''}
                </Table.Td>
                <Table.Td>{message.sentAt ? format.dateTime(message.sentAt) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="xs" c="dimmed" mt="xs">
        {t('report.noTracking')}
      </Text>
    </Paper>
  );
}
