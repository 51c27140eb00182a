// The date picker's and the rich-text editor's styles come with the form (lazy, news-editor-drawer.tsx).
import '@mantine/dates/styles.css';
import '@mantine/tiptap/styles.css';
import {
  Alert,
  Button,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import { NEWS_AUDIENCES, type NewsPost } from '@sf/contract/news';
import { BOUNDS } from '@sf/contract/validation';
import { message } from '@sf/contract/messages';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { useFormatters } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateNewsPost } from '../api/create-news-post.ts';
import { useDeleteNewsPost } from '../api/delete-news-post.ts';
import { useNewsAudiences } from '../api/get-news-audiences.ts';
import { useRunNewsPostAction, type NewsAction } from '../api/run-news-post-action.ts';
import { useUpdateNewsPost } from '../api/update-news-post.ts';
import { useBeforeUnload } from '../hooks/use-before-unload.ts';
import { useConfirm } from '../hooks/use-confirm.tsx';
import {
  emptyNewsForm,
  newsFormFromPost,
  newsFormResolver,
  toCreateBody,
  toUpdateBody,
  type NewsFormValues,
  type SaveIntent,
} from '../lib/news-form.ts';
import { nextFullHourAsWallClock, nowAsWallClock, wallClockToInstant } from '../lib/time-zone.ts';
import { NewsHistory } from './news-history.tsx';
import { NewsPreview } from './news-preview.tsx';
import { NewsStatusBadge } from './news-status-badge.tsx';
import { CoverImageField } from './cover-image-field.tsx';
import { RichTextField } from './rich-text-field.tsx';

type Props = {
  post?: NewsPost | undefined;
  onCreated: (post: NewsPost) => void;
  onDeleted: () => void;
  onDirtyChange: (isDirty: boolean) => void;
  onReload: () => Promise<NewsPost | undefined>;
};

const FORM_FIELDS = new Set<string>(['title', 'summary', 'body', 'coverImageId', 'audience', 'audienceId', 'publishAt', 'pinned']);

/** Watches the whole form, so it lives in its own component that only renders on the Preview tab. */
function FormPreview({ control, post, isDirty }: { control: Control<NewsFormValues>; post: NewsPost | undefined; isDirty: boolean }) {
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

export function NewsPostForm({ post, onCreated, onDeleted, onDirtyChange, onReload }: Props) {
  const { t, i18n } = useTranslation('news');
  const language = currentLanguage();
  const format = useFormatters();
  const confirm = useConfirm();
  const create = useCreateNewsPost();
  const update = useUpdateNewsPost();
  const remove = useDeleteNewsPost();
  const runAction = useRunNewsPostAction();
  const [hasConflict, setHasConflict] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  const form = useForm<NewsFormValues>({
    defaultValues: post ? newsFormFromPost(post, format.timeZone) : emptyNewsForm(),
    resolver: newsFormResolver(currentLanguage),
    mode: 'onTouched',
  });
  const { control, register, handleSubmit, reset, setError, setValue, formState, getValues } = form;
  const { errors, isDirty, dirtyFields } = formState;
  // Only what the buttons and the schedule need: watching every field would re-render the editor per keystroke.
  const [coverImageUrl, publishMode, audience] = useWatch({ control, name: ['coverImageUrl', 'publishMode', 'audience'] });
  // The program and merchant choices, once a post is addressed to one.
  const audiences = useNewsAudiences(audience !== 'everyone');

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  useBeforeUnload(isDirty);

  // Messages already on screen follow a language switch.
  useEffect(() => {
    if (Object.keys(form.formState.errors).length > 0) void form.trigger(Object.keys(form.formState.errors) as (keyof NewsFormValues)[]);
  }, [i18n.language, form]);

  const status = post?.status;
  const isBusy = create.isPending || update.isPending || remove.isPending || runAction.isPending;
  const isEditableSchedule = !status || status === 'draft' || status === 'scheduled';

  const showFailure = (failure: unknown) => {
    if (!isApiError(failure)) throw failure;
    if (failure.code === 'conflict' || failure.status === 409) {
      setHasConflict(true);
      return;
    }
    if (failure.code === 'validation') {
      const unplaced: string[] = [];
      for (const { field, message: text } of failure.fields ?? []) {
        // A field without a visible control (the date when publishing now) is reported above the form.
        const isShown = FORM_FIELDS.has(field) && (field !== 'publishAt' || getValues('publishMode') === 'schedule');
        if (isShown) setError(field as keyof NewsFormValues, { type: 'server', message: text }, { shouldFocus: true });
        else unplaced.push(text);
      }
      setFormError(unplaced.length > 0 ? unplaced.join(' · ') : failure.fields?.length ? null : failure.message);
    }
    // Anything else has been shown as a toast by the API client.
  };

  const save = async (formValues: NewsFormValues, intent: SaveIntent): Promise<NewsPost> => {
    const saved = post
      ? await update.mutateAsync({
          id: post.id,
          body: toUpdateBody(formValues, dirtyFields, intent, post.version, format.timeZone),
        })
      : await create.mutateAsync(toCreateBody(formValues, intent, format.timeZone));
    reset(newsFormFromPost(saved, format.timeZone));
    return saved;
  };

  const isScheduleValid = (formValues: NewsFormValues): boolean => {
    if (!formValues.publishAt) {
      setError('publishAt', { type: 'required', message: message('required', language, { field: 'publishAt' }) }, { shouldFocus: true });
      return false;
    }
    if (Date.parse(wallClockToInstant(formValues.publishAt, format.timeZone)) <= Date.now()) {
      setError('publishAt', { type: 'future', message: t('editor.schedule.mustBeFuture') }, { shouldFocus: true });
      return false;
    }
    return true;
  };

  // One save at a time, from the first click to the answer, confirmation included: a double click on
  // "Programma" (or on its confirmation) opened two confirmations and created two identical posts.
  const inFlight = useRef(false);
  const once = async (work: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      await work();
    } finally {
      inFlight.current = false;
    }
  };

  const submit = (intent: SaveIntent) =>
    once(() => handleSubmit(async (formValues) => {
      setFormError(null);
      if (intent === 'schedule' && !isScheduleValid(formValues)) return;
      if (intent === 'publish' || intent === 'schedule') {
        const when = intent === 'schedule' && formValues.publishAt ? format.dateTime(wallClockToInstant(formValues.publishAt, format.timeZone)) : '';
        const isConfirmed = await confirm({
          title: t(`confirm.${intent}.title`),
          message: t(`confirm.${intent}.message`, { title: formValues.title, when }),
          confirmLabel: t(`confirm.${intent}.confirm`),
        });
        if (!isConfirmed) return;
      }
      try {
        const saved = await save(formValues, intent);
        notifySuccess(t(`saved.${intent}`, { title: saved.title }));
        if (!post) onCreated(saved);
      } catch (failure) {
        showFailure(failure);
      }
    })());

  const act = (action: NewsAction) => once(() => runConfirmedAction(action));

  const runConfirmedAction = async (action: NewsAction) => {
    if (!post) return;
    setFormError(null);
    const isConfirmed = await confirm({
      title: t(`confirm.${action}.title`),
      message: t(`confirm.${action}.message`, { title: post.title }),
      confirmLabel: t(`confirm.${action}.confirm`),
      isDanger: action !== 'publish',
    });
    if (!isConfirmed) return;
    try {
      // Edits made before the action are kept: saved first, then the action on the new version.
      let version = post.version;
      if (isDirty) {
        const isValid = await form.trigger();
        if (!isValid) return;
        version = (await save(getValues(), 'keep')).version;
      }
      const changed = await runAction.mutateAsync({ id: post.id, action, version });
      reset(newsFormFromPost(changed, format.timeZone));
      notifySuccess(t(`saved.${action}`, { title: changed.title }));
    } catch (failure) {
      showFailure(failure);
    }
  };

  const deletePost = async () => {
    if (!post) return;
    const isConfirmed = await confirm({
      title: t('confirm.delete.title'),
      message: t('confirm.delete.message', { title: post.title }),
      confirmLabel: t('confirm.delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(post.id);
      notifySuccess(t('saved.delete', { title: post.title }));
      reset(getValues());
      onDeleted();
    } catch (failure) {
      showFailure(failure);
    }
  };

  const reloadAfterConflict = async () => {
    const fresh = await onReload();
    if (fresh) reset(newsFormFromPost(fresh, format.timeZone));
    setHasConflict(false);
  };

  const primaryIntent: SaveIntent = publishMode === 'schedule' ? 'schedule' : 'publish';

  return (
    <Stack gap="md">
      {post && (
        <Group gap="xs">
          <NewsStatusBadge status={post.status} />
          <Text size="sm" c="dimmed">
            {t('editor.lastSaved', { date: format.dateTime(post.updatedAt), author: post.author.displayName })}
          </Text>
        </Group>
      )}

      {hasConflict && (
        <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} title={t('conflict.title')} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('conflict.message')}</Text>
            <Button size="xs" variant="light" color="orange" onClick={() => void reloadAfterConflict()}>
              {t('conflict.reload')}
            </Button>
          </Stack>
        </Alert>
      )}
      {formError && (
        <Alert color="red" role="alert">
          {formError}
        </Alert>
      )}

      <Tabs defaultValue="write" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="write">{t('editor.tabs.write')}</Tabs.Tab>
          <Tabs.Tab value="preview">{t('editor.tabs.preview')}</Tabs.Tab>
          {post && <Tabs.Tab value="history">{t('editor.tabs.history')}</Tabs.Tab>}
        </Tabs.List>

        <Tabs.Panel value="write" pt="md">
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit(status === 'draft' || !status ? 'draft' : 'keep');
            }}
          >
            <Stack gap="md">
              <TextInput
                label={t('editor.fields.title')}
                withAsterisk
                maxLength={BOUNDS.newsTitleMax}
                error={errors.title?.message}
                {...register('title')}
              />
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
                  <RichTextField
                    label={t('editor.fields.body')}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                  />
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
              <Controller
                control={control}
                name="audience"
                render={({ field }) => (
                  <Select
                    label={t('editor.fields.audience')}
                    data={NEWS_AUDIENCES.map((audience) => ({ value: audience, label: t(`audience.${audience}`) }))}
                    value={field.value}
                    onChange={(value) => {
                      field.onChange(value ?? 'everyone');
                      // Another kind of audience: its program or merchant is chosen again.
                      setValue('audienceId', null, { shouldDirty: true });
                    }}
                    allowDeselect={false}
                    error={errors.audience?.message}
                  />
                )}
              />
              {audience !== 'everyone' ? (
                <Controller
                  control={control}
                  name="audienceId"
                  render={({ field }) => (
                    <Select
                      label={t(audience === 'program' ? 'editor.fields.audienceProgram' : 'editor.fields.audienceMerchant')}
                      data={(audience === 'program' ? audiences.data?.programs : audiences.data?.merchants)?.map((option) => ({ value: option.id, label: option.name })) ?? []}
                      value={field.value}
                      onChange={(value) => field.onChange(value)}
                      searchable
                      required
                      nothingFoundMessage="—"
                      error={errors.audienceId?.message}
                    />
                  )}
                />
              ) : null}
              <Switch
                label={t('editor.fields.pinned')}
                description={t('editor.fields.pinnedHint')}
                {...register('pinned')}
              />
              {isEditableSchedule ? (
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
                        <DatesProvider settings={{ locale: language, firstDayOfWeek: language === 'it' ? 1 : 0 }}>
                          <DateTimePicker
                            label={t('editor.schedule.at')}
                            description={t('editor.schedule.timeZone', { zone: format.timeZone })}
                            value={field.value}
                            onChange={(value) => field.onChange(value)}
                            onBlur={field.onBlur}
                            minDate={nowAsWallClock(format.timeZone)}
                            valueFormat={language === 'it' ? 'DD/MM/YYYY HH:mm' : 'MM/DD/YYYY hh:mm A'}
                            timePickerProps={{ format: language === 'it' ? '24h' : '12h' }}
                            withAsterisk
                            error={fieldState.error?.message}
                            submitButtonProps={{ 'aria-label': t('editor.schedule.confirmTime') }}
                            clearable={false}
                          />
                        </DatesProvider>
                      )}
                    />
                  )}
                </Stack>
              ) : (
                post?.publishAt && (
                  <Text size="sm">{t('editor.schedule.publishedAt', { date: format.dateTime(post.publishAt) })}</Text>
                )
              )}
            </Stack>
          </form>
        </Tabs.Panel>

        <Tabs.Panel value="preview" pt="md">
          <FormPreview control={control} post={post} isDirty={isDirty} />
        </Tabs.Panel>

        {post && (
          <Tabs.Panel value="history" pt="md">
            <NewsHistory postId={post.id} />
          </Tabs.Panel>
        )}
      </Tabs>

      {/* Sticky, so the actions stay in reach however long the post is. */}
      <Group
        justify="space-between"
        gap="sm"
        wrap="wrap"
        py="sm"
        style={{
          borderTop: '1px solid var(--mantine-color-default-border)',
          position: 'sticky',
          bottom: 0,
          background: 'var(--mantine-color-body)',
          zIndex: 2,
        }}
      >
        <Group gap="sm">
          {post && (status === 'draft' || status === 'scheduled') && (
            <Button variant="subtle" color="red" onClick={() => void deletePost()} disabled={isBusy}>
              {t('actions.delete')}
            </Button>
          )}
          {post && status === 'published' && (
            <Button variant="subtle" color="red" onClick={() => void act('archive')} disabled={isBusy}>
              {t('actions.archive')}
            </Button>
          )}
          {post && (status === 'published' || status === 'scheduled') && (
            <Button variant="default" onClick={() => void act('unpublish')} disabled={isBusy}>
              {t('actions.unpublish')}
            </Button>
          )}
        </Group>
        <Group gap="sm">
          {(!status || status === 'draft') && (
            <Button variant="default" onClick={() => void submit('draft')} loading={isBusy} disabled={!isDirty && Boolean(post)}>
              {t('actions.saveDraft')}
            </Button>
          )}
          {(status === 'published' || status === 'archived') && (
            <Button variant={status === 'archived' ? 'default' : 'filled'} onClick={() => void submit('keep')} loading={isBusy} disabled={!isDirty}>
              {t('actions.saveChanges')}
            </Button>
          )}
          {status === 'archived' && (
            <Button onClick={() => void act('publish')} loading={isBusy}>
              {t('actions.republish')}
            </Button>
          )}
          {isEditableSchedule && (
            <Button onClick={() => void submit(primaryIntent)} loading={isBusy}>
              {primaryIntent === 'schedule'
                ? t(status === 'scheduled' ? 'actions.reschedule' : 'actions.schedule')
                : t(status === 'scheduled' ? 'actions.publishNow' : 'actions.publish')}
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}
