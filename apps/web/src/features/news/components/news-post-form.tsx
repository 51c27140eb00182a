// The rich-text editor's styles come with the form (lazy, news-editor-drawer.tsx); the date picker's with the date fields (components/ui/date-pickers.tsx).
import '@mantine/tiptap/styles.css';
import { Alert, Group, Stack, Switch, Tabs, Text } from '@mantine/core';
import type { NewsPost } from '@sf/contract/news';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useReportUnsavedChanges } from '../../../components/ui/unsaved-changes.tsx';
import { VersionConflictNotice } from '../../../components/ui/version-conflict.tsx';
import { useFormatters } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { useNewsPostCommands } from '../hooks/use-news-post-commands.ts';
import { emptyNewsForm, newsFormFromPost, newsFormResolver, type NewsFormValues, type SaveIntent } from '../lib/news-form.ts';
import { NewsAudienceFields } from './news-audience-fields.tsx';
import { NewsContentFields } from './news-content-fields.tsx';
import { NewsFormPreview } from './news-form-preview.tsx';
import { NewsHistory } from './news-history.tsx';
import { NewsPostActionBar } from './news-post-action-bar.tsx';
import { NewsScheduleFields } from './news-schedule-fields.tsx';
import { NewsStatusBadge } from './news-status-badge.tsx';

type Props = {
  post?: NewsPost | undefined;
  onCreated: (post: NewsPost) => void;
  onDeleted: () => void;
};

/**
 * A news post being written or changed: the form's state and its tabs (write, preview, history). The
 * fields live in news-*-fields.tsx, what the buttons do in use-news-post-commands.ts.
 */
export function NewsPostForm({ post, onCreated, onDeleted }: Props) {
  const { t, i18n } = useTranslation('news');
  const format = useFormatters();

  const form = useForm<NewsFormValues>({
    defaultValues: post ? newsFormFromPost(post, format.timeZone) : emptyNewsForm(),
    resolver: newsFormResolver(currentLanguage),
    mode: 'onTouched',
  });
  const { control, register, formState } = form;
  const { isDirty } = formState;
  // Only what the buttons need: watching every field would re-render the editor per keystroke.
  const publishMode = useWatch({ control, name: 'publishMode' });
  const commands = useNewsPostCommands(form, { post, onCreated, onDeleted });

  // The drawer asks before Esc, Back or a reload throws these edits away.
  useReportUnsavedChanges(isDirty, { name: 'newsPost', form });

  // Messages already on screen follow a language switch.
  useEffect(() => {
    if (Object.keys(form.formState.errors).length > 0) void form.trigger(Object.keys(form.formState.errors) as (keyof NewsFormValues)[]);
  }, [i18n.language, form]);

  const status = post?.status;
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

      <VersionConflictNotice conflict={commands.conflict} />
      {commands.formError && (
        <Alert color="red" role="alert">
          {commands.formError}
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
              // Enter in a field saves without publishing: a draft stays a draft, anything else keeps its status.
              void commands.submit(status === 'draft' || !status ? 'draft' : 'keep');
            }}
          >
            <Stack gap="md">
              <NewsContentFields form={form} />
              <NewsAudienceFields form={form} />
              <Switch label={t('editor.fields.pinned')} description={t('editor.fields.pinnedHint')} {...register('pinned')} />
              <NewsScheduleFields form={form} post={post} />
            </Stack>
          </form>
        </Tabs.Panel>

        <Tabs.Panel value="preview" pt="md">
          <NewsFormPreview control={control} post={post} isDirty={isDirty} />
        </Tabs.Panel>

        {post && (
          <Tabs.Panel value="history" pt="md">
            <NewsHistory postId={post.id} />
          </Tabs.Panel>
        )}
      </Tabs>

      <NewsPostActionBar
        status={status}
        isDirty={isDirty}
        isBusy={commands.isBusy}
        primaryIntent={primaryIntent}
        onSave={(intent) => void commands.submit(intent)}
        onAction={(action) => void commands.act(action)}
        onDelete={() => void commands.deletePost()}
      />
    </Stack>
  );
}
