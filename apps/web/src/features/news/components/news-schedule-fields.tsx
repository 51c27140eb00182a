import { SegmentedControl, Stack, Text } from '@mantine/core';
import type { NewsPost } from '@sf/contract/news';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';
import { DateTimeField } from '../../../components/ui/date-fields.tsx';
import type { NewsFormValues } from '../lib/news-form.ts';
import { nextFullHourAsWallClock, nowAsWallClock } from '../../../lib/time-zone.ts';

/**
 * When the post goes out: now, or at a wall-clock time of the user's zone (a draft or a scheduled
 * post); a published or archived post only says when it was published.
 */
export function NewsScheduleFields({ form, post }: { form: UseFormReturn<NewsFormValues>; post: NewsPost | undefined }) {
  const { t } = useTranslation('news');
  const format = useFormatters();
  const { control, setValue, getValues } = form;
  const publishMode = useWatch({ control, name: 'publishMode' });
  const status = post?.status;
  const isEditableSchedule = !status || status === 'draft' || status === 'scheduled';

  if (!isEditableSchedule) {
    return post?.publishAt ? <Text size="sm">{t('editor.schedule.publishedAt', { date: format.dateTime(post.publishAt) })}</Text> : null;
  }
  return (
    <Stack gap="xs">
      <Text component="div" size="sm" fw={500} id="news-publish-mode-label">
        {t('editor.schedule.label')}
      </Text>
      <Controller
        control={control}
        name="publishMode"
        render={({ field }) => (
          <SegmentedControl
            aria-labelledby="news-publish-mode-label"
            data={[
              { value: 'now', label: t('editor.schedule.now') },
              { value: 'schedule', label: t('editor.schedule.later') },
            ]}
            value={field.value}
            onChange={(value) => {
              field.onChange(value);
              if (value === 'schedule' && !getValues('publishAt')) {
                // A sensible starting point: the next full hour, in the user's zone.
                setValue('publishAt', nextFullHourAsWallClock(format.timeZone), { shouldDirty: true });
              }
            }}
            w="fit-content"
          />
        )}
      />
      {publishMode === 'schedule' && (
        <Controller
          control={control}
          name="publishAt"
          render={({ field, fieldState }) => (
            <DateTimeField
              label={t('editor.schedule.at')}
              description={t('editor.schedule.timeZone', { zone: format.timeZone })}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              minDate={nowAsWallClock(format.timeZone)}
              withAsterisk
              error={fieldState.error?.message}
            />
          )}
        />
      )}
    </Stack>
  );
}
