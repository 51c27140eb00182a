import { Textarea, TextInput } from '@mantine/core';
import { BOUNDS } from '@sf/contract/validation';
import { Controller, useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { NewsFormValues } from '../lib/news-form.ts';
import { CoverImageField } from './cover-image-field.tsx';
import { RichTextField } from './rich-text-field.tsx';

/** What the customers read: the title, the summary, the text and the cover image. */
export function NewsContentFields({ form }: { form: UseFormReturn<NewsFormValues> }) {
  const { t } = useTranslation('news');
  const { control, register, setValue } = form;
  const { errors } = useFormState({ control, name: ['title', 'summary', 'coverImageId'] });
  const coverImageUrl = useWatch({ control, name: 'coverImageUrl' });
  return (
    <>
      <TextInput label={t('editor.fields.title')} data-autofocus autoFocus withAsterisk maxLength={BOUNDS.newsTitleMax} error={errors.title?.message} {...register('title')} />
      <Textarea
        label={t('editor.fields.summary')}
        description={t('editor.fields.summaryHint', { max: BOUNDS.newsSummaryMax })}
        rows={3}
        resize="vertical"
        maxLength={BOUNDS.newsSummaryMax}
        error={errors.summary?.message}
        {...register('summary')}
      />
      <Controller
        control={control}
        name="body"
        render={({ field, fieldState }) => (
          <RichTextField label={t('editor.fields.body')} value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={fieldState.error?.message} />
        )}
      />
      <CoverImageField
        url={coverImageUrl}
        error={errors.coverImageId?.message}
        onUploaded={(cover) => {
          setValue('coverImageId', cover.id, { shouldDirty: true });
          setValue('coverImageUrl', cover.url, { shouldDirty: true });
        }}
        onRemove={() => {
          setValue('coverImageId', null, { shouldDirty: true });
          setValue('coverImageUrl', null, { shouldDirty: true });
        }}
      />
    </>
  );
}
