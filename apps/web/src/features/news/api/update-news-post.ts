import type { NewsPost, UpdateNewsPost } from '@sf/contract/news';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

/** Refusals the news editor shows in its form rather than as a toast. */
export const NEWS_INLINE_CODES = ['version_conflict'] as const;

export function updateNewsPost({ id, body }: { id: number; body: UpdateNewsPost }): Promise<NewsPost> {
  // The editor shows a stale version in the form, with its reload button (use-news-post-commands.ts).
  return apiClient.patch<NewsPost>(`/admin/news/${id}`, body, { inlineCodes: NEWS_INLINE_CODES });
}

export function useUpdateNewsPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNewsPost,
    onSuccess: (post) => {
      queryClient.setQueryData(newsKeys.post(post.id), post);
      void queryClient.invalidateQueries({ queryKey: newsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: newsKeys.history(post.id) });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
