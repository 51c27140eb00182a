import { Drawer, Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { UnsavedChangesScope, useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes.tsx';
import { useNewsPost } from '../api/get-news-post.ts';
import { useEditorTarget } from '../hooks/use-news-search-params.ts';

// The form brings the rich-text editor (tiptap, ProseMirror) and the date picker, ~150 KiB on the
// wire: it loads when the drawer first opens, not with the list (decision 010).
const NewsPostForm = lazy(() => import('./news-post-form.tsx').then((module) => ({ default: module.NewsPostForm })));
const formFallback = (
  <Stack>
    <Skeleton height={36} />
    <Skeleton height={220} />
  </Stack>
);

function ExistingPostEditor({
  id,
  onDeleted,
}: {
  id: number;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('news');
  const query = useNewsPost(id);

  if (query.isPending) {
    return (
      <Stack aria-busy="true" aria-label={t('editor.loading')}>
        <Skeleton height={36} />
        <Skeleton height={60} />
        <Skeleton height={220} />
      </Stack>
    );
  }
  // "Not found" only for a post that is not there; a network failure or a 5xx says so. A failed refetch
  // (after a save, or "Ricarica") keeps the form and what was typed in it (`StaleDataNotice`).
  if (isBlockingFailure(query) || !query.data) return <FailureAlert error={query.error} missing={{ title: t('editor.notFound.title'), text: t('editor.notFound.text') }} />;
  return (
    <Stack gap="md">
      <StaleDataNotice query={query} />
      <NewsPostForm
        post={query.data}
        onCreated={() => undefined}
        onDeleted={onDeleted}
      />
    </Stack>
  );
}

/**
 * The editor lives in a drawer addressed by `?post=`. Esc, the close button, the overlay and Back all
 * go through the unsaved-changes check (`useUnsavedChangesGuard`, every drawer's); the drawer traps
 * focus while open.
 */
export function NewsEditorDrawer() {
  const { t } = useTranslation('news');
  const { target, show, close } = useEditorTarget();
  // The same query as the form's (one request): the title follows whether the post could be read.
  const post = useNewsPost(typeof target === 'number' ? target : null);
  const isPhone = useMediaQuery('(max-width: 48em)');
  const guard = useUnsavedChangesGuard({ param: 'post', close });

  return (
    <Drawer
      opened={target !== null}
      onClose={() => void guard.requestClose()}
      position="right"
      size={isPhone ? '100%' : 'xl'}
      // Nothing to edit over a read that failed: the entity alone above the alert that says why.
      title={target === 'new' ? t('editor.newTitle') : !post.data && post.isError ? t('editor.readFailedTitle') : t('editor.editTitle')}
      closeButtonProps={{ 'aria-label': t('editor.close') }}
      padding="lg"
    >
      <UnsavedChangesScope guard={guard}>
        <Suspense fallback={formFallback}>
          {target === 'new' && (
            <NewsPostForm
              key="new"
              onCreated={(post) => {
                guard.forgetEdits();
                show(post.id);
              }}
              onDeleted={guard.closeSaved}
            />
          )}
          {typeof target === 'number' && (
            <ExistingPostEditor key={target} id={target} onDeleted={guard.closeSaved} />
          )}
        </Suspense>
      </UnsavedChangesScope>
    </Drawer>
  );
}
