import { Stack, Text } from '@mantine/core';
import type { NewsPost } from '@sf/contract/news';
import { useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';
import type { NewsFormValues } from '../lib/news-form.ts';
import { wallClockToInstant } from '../../../lib/time-zone.ts';
import { NewsPreview } from './news-preview.tsx';

/** Watches the whole form, so it lives in its own component that only renders on the Preview tab. */
export function NewsFormPreview({ control, post, isDirty }: { control: Control<NewsFormValues>; post: NewsPost | undefined; isDirty: boolean }) {
  const { t } = useTranslation('news');
  const format = useFormatters();
  const values = useWatch({ control }) as NewsFormValues;
  const dateLabel = (() => {
    if (values.publishMode === 'schedule' && values.publishAt) return format.dateTime(wallClockToInstant(values.publishAt, format.timeZone));
    if (post?.publishAt && post.status === 'published') return format.dateTime(post.publishAt);
    return t('preview.today', { date: format.date(new Date()) });
  })();
  return (
    <Stack gap="xs">
      {isDirty && (
        <Text size="sm" c="dimmed">
          {t('preview.unsaved')}
        </Text>
      )}
      <NewsPreview
        title={values.title}
        summary={values.summary}
        bodyHtml={isDirty || !post ? values.body : post.body}
        coverUrl={values.coverImageUrl}
        dateLabel={dateLabel}
        isPinned={values.pinned}
      />
    </Stack>
  );
}
