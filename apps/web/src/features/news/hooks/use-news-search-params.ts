import { NEWS_SORT_FIELDS, NEWS_STATUSES, type NewsStatus } from '@sf/contract/news';
import { BOUNDS } from '@sf/contract/validation';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

export type NewsSortField = (typeof NEWS_SORT_FIELDS)[number];
export type SortOrder = 'asc' | 'desc';

export type NewsListParams = {
  q: string;
  status: NewsStatus | undefined;
  sort: NewsSortField;
  order: SortOrder;
  page: number;
  pageSize: number;
};

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export const DEFAULT_LIST_PARAMS: NewsListParams = {
  q: '',
  status: undefined,
  sort: 'updatedAt',
  order: 'desc',
  page: 1,
  pageSize: 25,
};

function positiveInt(raw: string | null, fallback: number, max: number): number {
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= max ? value : fallback;
}

/** Hand-edited or stale URLs fall back to the defaults field by field instead of breaking the list. */
export function parseNewsListParams(search: URLSearchParams): NewsListParams {
  const status = search.get('status');
  const sort = search.get('sort');
  const order = search.get('order');
  return {
    q: (search.get('q') ?? '').slice(0, BOUNDS.searchMax),
    status: (NEWS_STATUSES as readonly string[]).includes(status ?? '') ? (status as NewsStatus) : undefined,
    sort: (NEWS_SORT_FIELDS as readonly string[]).includes(sort ?? '') ? (sort as NewsSortField) : DEFAULT_LIST_PARAMS.sort,
    order: order === 'asc' || order === 'desc' ? order : DEFAULT_LIST_PARAMS.order,
    page: positiveInt(search.get('page'), 1, 1_000_000),
    pageSize: positiveInt(search.get('pageSize'), DEFAULT_LIST_PARAMS.pageSize, BOUNDS.pageSizeMax),
  };
}

/** Writes only what differs from the defaults, so a shared link stays short. */
function writeListParams(search: URLSearchParams, params: NewsListParams): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const key of Object.keys(DEFAULT_LIST_PARAMS) as (keyof NewsListParams)[]) {
    const value = params[key];
    if (value === undefined || value === '' || value === DEFAULT_LIST_PARAMS[key]) next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

/** The list's search, filter, sort and page live in the URL: reload, back and shared links keep them. */
export function useNewsListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parseNewsListParams(searchParams), [searchParams]);

  const update = useCallback(
    (patch: Partial<NewsListParams>, options: { isReplace?: boolean } = {}) => {
      setSearchParams(
        (previous) => {
          const current = parseNewsListParams(previous);
          // Any change but the page itself starts again from page 1: page 7 of another filter means nothing.
          const page = patch.page ?? 1;
          return writeListParams(previous, { ...current, ...patch, page });
        },
        { replace: options.isReplace ?? false },
      );
    },
    [setSearchParams],
  );

  return { params, update };
}

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
 * straight on a post, so "close" never leaves the app).
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
