import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSearchParamsWriter } from '../../../hooks/use-list-params.ts';

export type EditorTarget = 'new' | number | null;

type EditorState = { isEditorPushed?: boolean } | null;

export function parseEditorTarget(raw: string | null): EditorTarget {
  if (raw === 'new') return 'new';
  const id = Number(raw);
  return raw !== null && Number.isInteger(id) && id > 0 ? id : null;
}

function withPost(params: URLSearchParams, post: 'new' | number | null): URLSearchParams {
  if (post === null) params.delete('post');
  else params.set('post', String(post));
  return params;
}

/**
 * The editor drawer is addressed by `?post=new` / `?post=<id>`. Opening pushes a history entry so the
 * back button closes it; closing pops that entry again (or replaces it when the page was opened
 * straight on a post, so "close" never leaves the app). The News screen declares `post` among its
 * `drawers` (app/screens.ts), so that a move to `/news?post=new` leaves the focus to the editor.
 */
export function useEditorTarget() {
  const [searchParams] = useSearchParams();
  const writeSearch = useSearchParamsWriter();
  const location = useLocation();
  const navigate = useNavigate();
  const target = parseEditorTarget(searchParams.get('post'));
  const isPushed = Boolean((location.state as EditorState)?.isEditorPushed);

  const open = useCallback(
    (post: 'new' | number) => {
      writeSearch((next) => withPost(next, post), { state: { isEditorPushed: true } });
    },
    [writeSearch],
  );

  /** After creating a post the drawer stays open on it, without a second history entry. */
  const show = useCallback(
    (post: number) => {
      writeSearch((next) => withPost(next, post), { replace: true, state: location.state });
    },
    [writeSearch, location.state],
  );

  const close = useCallback(() => {
    if (isPushed) void navigate(-1);
    else writeSearch((next) => withPost(next, null), { replace: true });
  }, [isPushed, navigate, writeSearch]);

  const hrefFor = useCallback((post: 'new' | number) => `?${withPost(new URLSearchParams(searchParams), post).toString()}`, [searchParams]);

  return { target, open, show, close, hrefFor };
}
