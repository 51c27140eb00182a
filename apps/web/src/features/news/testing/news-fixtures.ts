import type { NewsPost } from '@sf/contract/news';

/** A complete post as the API answers it; override what a test cares about. */
export function newsPost(overrides: Partial<NewsPost> = {}): NewsPost {
  return {
    id: 7,
    title: 'Colazione a metà prezzo',
    summary: 'Tutti i martedì di novembre',
    body: '<p>Vieni a trovarci.</p>',
    coverImageUrl: null,
    audience: 'everyone',
    audienceId: null,
    status: 'draft',
    publishAt: null,
    pinned: false,
    author: { id: 'u-editor', displayName: 'Eddie Editor' },
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T10:30:00.000Z',
    version: 3,
    ...overrides,
  };
}

export function newsPage(items: NewsPost[], overrides: { total?: number; page?: number; pageSize?: number } = {}) {
  return { items, total: overrides.total ?? items.length, page: overrides.page ?? 1, pageSize: overrides.pageSize ?? 25 };
}

/** The API client sends the forgery-protection cookie back as a header; with it set, no priming call is made. */
export function setCsrfCookie(): void {
  document.cookie = 'XSRF-TOKEN=test-csrf; path=/';
}
