import { Select } from '@mantine/core';
import { NEWS_AUDIENCES } from '@sf/contract/news';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNewsAudiences } from '../api/get-news-audiences.ts';
import type { NewsFormValues } from '../lib/news-form.ts';

/** Who reads the post: everyone, or the customers of one program or one merchant (then chosen here). */
export function NewsAudienceFields({ form }: { form: UseFormReturn<NewsFormValues> }) {
  const { t } = useTranslation('news');
  const { control, setValue } = form;
  const audience = useWatch({ control, name: 'audience' });
  // The program and merchant choices, once a post is addressed to one.
  const audiences = useNewsAudiences(audience !== 'everyone');
  return (
    <>
      <Controller
        control={control}
        name="audience"
        render={({ field, fieldState }) => (
          <Select
            label={t('editor.fields.audience')}
            data={NEWS_AUDIENCES.map((kind) => ({ value: kind, label: t(`audience.${kind}`) }))}
            value={field.value}
            onChange={(value) => {
              field.onChange(value ?? 'everyone');
              // Another kind of audience: its program or merchant is chosen again.
              setValue('audienceId', null, { shouldDirty: true });
            }}
            allowDeselect={false}
            error={fieldState.error?.message}
          />
        )}
      />
      {audience !== 'everyone' ? (
        <Controller
          control={control}
          name="audienceId"
          render={({ field, fieldState }) => (
            <Select
              label={t(audience === 'program' ? 'editor.fields.audienceProgram' : 'editor.fields.audienceMerchant')}
              data={(audience === 'program' ? audiences.data?.programs : audiences.data?.merchants)?.map((option) => ({ value: option.id, label: option.name })) ?? []}
              value={field.value}
              onChange={(value) => field.onChange(value)}
              searchable
              required
              nothingFoundMessage="—"
              error={fieldState.error?.message}
            />
          )}
        />
      ) : null}
    </>
  );
}
