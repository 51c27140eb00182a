import { Drawer, Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { NewsPost } from '@sf/contract/news';
import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { useNewsPost } from '../api/get-news-post.ts';
import { useConfirm } from '../hooks/use-confirm.tsx';
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
  onDirtyChange,
}: {
  id: number;
  onDeleted: () => void;
  onDirtyChange: (isDirty: boolean) => void;
}) {
  const { t } = useTranslation('news');
  const query = useNewsPost(id);
  const reload = useCallback(async (): Promise<NewsPost | undefined> => (await query.refetch()).data, [query]);

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
        // A fresh form per post version loaded from the server after a conflict reload keeps its own state.
        post={query.data}
        onCreated={() => undefined}
        onDeleted={onDeleted}
        onDirtyChange={onDirtyChange}
        onReload={reload}
      />
    </Stack>
  );
}

/**
 * The editor lives in a drawer addressed by `?post=`. Esc, the close button and the overlay all go
 * through the unsaved-changes check; the drawer traps focus while open.
 */
export function NewsEditorDrawer() {
  const { t } = useTranslation('news');
  const { target, show, close } = useEditorTarget();
  // The same query as the form's (one request): the title follows whether the post could be read.
  const post = useNewsPost(typeof target === 'number' ? target : null);
  const isPhone = useMediaQuery('(max-width: 48em)');
  const confirm = useConfirm();
  const isDirtyRef = useRef(false);
  const onDirtyChange = useCallback((isDirty: boolean) => {
    isDirtyRef.current = isDirty;
  }, []);

  const forceClose = useCallback(() => {
    isDirtyRef.current = false;
    close();
  }, [close]);

  const requestClose = useCallback(async () => {
    if (isDirtyRef.current) {
      const isConfirmed = await confirm({
        title: t('confirm.discard.title'),
        message: t('confirm.discard.message'),
        confirmLabel: t('confirm.discard.confirm'),
        isDanger: true,
      });
      if (!isConfirmed) return;
    }
    forceClose();
  }, [confirm, forceClose, t]);

  // The back button (or any link) leaving the post with unsaved changes asks first, like the close button.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!isDirtyRef.current) return false;
    const post = (location: { search: string }) => new URLSearchParams(location.search).get('post');
    return currentLocation.pathname !== nextLocation.pathname || post(currentLocation) !== post(nextLocation);
  });
  const isAskingRef = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || isAskingRef.current) return;
    isAskingRef.current = true;
    void confirm({
      title: t('confirm.discard.title'),
      message: t('confirm.discard.message'),
      confirmLabel: t('confirm.discard.confirm'),
      isDanger: true,
    }).then((isConfirmed) => {
      isAskingRef.current = false;
      if (isConfirmed) {
        isDirtyRef.current = false;
        blocker.proceed();
      } else blocker.reset();
    });
  }, [blocker, confirm, t]);

  return (
    <Drawer
      opened={target !== null}
      onClose={() => void requestClose()}
      position="right"
      size={isPhone ? '100%' : 'xl'}
      // Nothing to edit over a read that failed: the entity alone above the alert that says why.
      title={target === 'new' ? t('editor.newTitle') : !post.data && post.isError ? t('editor.readFailedTitle') : t('editor.editTitle')}
      closeButtonProps={{ 'aria-label': t('editor.close') }}
      padding="lg"
    >
      <Suspense fallback={formFallback}>
        {target === 'new' && (
          <NewsPostForm
            key="new"
            onCreated={(post) => {
              isDirtyRef.current = false;
              show(post.id);
            }}
            onDeleted={forceClose}
            onDirtyChange={onDirtyChange}
            onReload={async () => undefined}
          />
        )}
        {typeof target === 'number' && (
          <ExistingPostEditor key={target} id={target} onDeleted={forceClose} onDirtyChange={onDirtyChange} />
        )}
      </Suspense>
    </Drawer>
  );
}
