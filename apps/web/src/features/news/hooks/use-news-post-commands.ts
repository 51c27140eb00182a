import { message } from '@sf/contract/messages';
import type { NewsPost } from '@sf/contract/news';
import { useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { useFormatters } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateNewsPost } from '../api/create-news-post.ts';
import { useDeleteNewsPost } from '../api/delete-news-post.ts';
import { getNewsPost } from '../api/get-news-post.ts';
import { useRunNewsPostAction, type NewsAction } from '../api/run-news-post-action.ts';
import { useUpdateNewsPost } from '../api/update-news-post.ts';
import { newsFormFromPost, toCreateBody, toUpdateBody, type NewsFormValues, type SaveIntent } from '../lib/news-form.ts';
import { wallClockToInstant } from '../../../lib/time-zone.ts';
import { useConfirm } from '../../../hooks/use-confirm.tsx';

const FORM_FIELDS = new Set<string>(['title', 'summary', 'body', 'coverImageId', 'audience', 'audienceId', 'publishAt', 'pinned']);

type Options = {
  post: NewsPost | undefined;
  onCreated: (post: NewsPost) => void;
  onDeleted: () => void;
};

/**
 * What the editor's buttons do: save (draft, keep, publish, schedule, with the publish and schedule
 * confirmations), the actions on a saved post (publish, unpublish, archive) and its deletion, each
 * confirmed, one at a time; the API's refusals placed on their fields, a version conflict offered a reload
 * that keeps the user's changes (`useVersionConflict`, every edit form's).
 */
export function useNewsPostCommands(form: UseFormReturn<NewsFormValues>, { post, onCreated, onDeleted }: Options) {
  const { t } = useTranslation('news');
  const language = currentLanguage();
  const format = useFormatters();
  const confirm = useConfirm();
  const create = useCreateNewsPost();
  const update = useUpdateNewsPost();
  const remove = useDeleteNewsPost();
  const runAction = useRunNewsPostAction();
  const [formError, setFormError] = useState<string | null>(null);
  const { handleSubmit, reset, setError, getValues } = form;
  // Read while rendering, as react-hook-form wants, so that it keeps them up to date.
  const { isDirty, dirtyFields } = form.formState;

  const conflict = useVersionConflict({
    form,
    record: post ?? null,
    load: () => getNewsPost(post?.id ?? 0),
    toValues: (fresh: NewsPost) => newsFormFromPost(fresh, format.timeZone),
    // The text is a page of HTML and the cover an image: named, not printed.
    describeValue: (field) => (field === 'body' || field === 'coverImageId' ? null : undefined),
  });

  const isBusy = create.isPending || update.isPending || remove.isPending || runAction.isPending;

  const showFailure = (failure: unknown) => {
    if (!isApiError(failure)) throw failure;
    // The API's answer to a stale version; the client raised no toast for it (NEWS_INLINE_CODES).
    if (conflict.catchConflict(failure)) return;
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
          body: toUpdateBody(formValues, dirtyFields, intent, conflict.version ?? post.version, format.timeZone),
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
    once(() =>
      handleSubmit(async (formValues) => {
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
      })(),
    );

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
      let version = conflict.version ?? post.version;
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

  const act = (action: NewsAction) => once(() => runConfirmedAction(action));

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

  return { submit, act, deletePost, conflict: conflict.notice, formError, isBusy };
}
