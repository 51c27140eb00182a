import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

export type EditorTarget = 'new' | number | null;

type EditorState = { isEditorPushed?: boolean } | null;

export function parseEditorTarget(raw: string | null): EditorTarget {
  if (raw === 'new') return 'new';
  const id = Number(raw);
  return raw !== null && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The editor drawer is addressed by `?post=new` / `?post=<id>`. Opening pushes a history entry so the
 * back button closes it; closing pops that entry again (or replaces it when the page was opened
 * straight on a post, so "close" never leaves the app). The News screen declares `post` among its
 * `drawers` (app/screens.ts), so that a move to `/news?post=new` leaves the focus to the editor.
 */
export function useEditorTarget() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const target = parseEditorTarget(searchParams.get('post'));
  const isPushed = Boolean((location.state as EditorState)?.isEditorPushed);

  const withPost = useCallback(
    (post: 'new' | number | null) => {
      const next = new URLSearchParams(searchParams);
      if (post === null) next.delete('post');
      else next.set('post', String(post));
      return next;
    },
    [searchParams],
  );

  const open = useCallback(
    (post: 'new' | number) => {
      setSearchParams(withPost(post), { state: { isEditorPushed: true } });
    },
    [setSearchParams, withPost],
  );

  /** After creating a post the drawer stays open on it, without a second history entry. */
  const show = useCallback(
    (post: number) => {
      setSearchParams(withPost(post), { replace: true, state: location.state });
    },
    [setSearchParams, withPost, location.state],
  );

  const close = useCallback(() => {
    if (isPushed) void navigate(-1);
    else setSearchParams(withPost(null), { replace: true });
  }, [isPushed, navigate, setSearchParams, withPost]);

  const hrefFor = useCallback((post: 'new' | number) => `?${withPost(post).toString()}`, [withPost]);

  return { target, open, show, close, hrefFor };
}
