import { Alert, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { useTranslation } from 'react-i18next';
import { useDescribeChange } from '../../../lib/describe-change.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useNewsPostHistory } from '../api/get-news-post-history.ts';

/** Who changed the post and when, from the audit log (B5). */
export function NewsHistory({ postId }: { postId: number }) {
  const { t } = useTranslation('news');
  const format = useFormatters();
  const describe = useDescribeChange();
  const history = useNewsPostHistory(postId);

  if (history.isPending) return <Skeleton height={80} />;
  if (isBlockingFailure(history) || !history.data) return <Alert color="red">{t('history.error')}</Alert>;
  if (history.data.items.length === 0) return <Text c="dimmed">{t('history.empty')}</Text>;

  // A failed refetch (after a save) keeps the entries already shown.
  return (
    <Stack gap="sm">
      <StaleDataNotice query={history} />
      <Timeline bulletSize={12} lineWidth={2}>
        {history.data.items.map((entry) => (
          <Timeline.Item key={entry.id} title={t(`history.actions.${entry.action}`, { defaultValue: entry.action })}>
            <Stack gap={0}>
              <Text size="sm">{describe.actor(entry.actorEmail)}</Text>
              <Text size="xs" c="dimmed">
                {format.dateTime(entry.at)}
              </Text>
            </Stack>
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}
