import type { NewsPost, newsActionSchema } from '@sf/contract/news';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';
import { NEWS_INLINE_CODES } from './update-news-post.ts';

export type NewsAction = z.infer<typeof newsActionSchema>['action'];

export function runNewsPostAction({ id, action, version }: { id: number; action: NewsAction; version: number }): Promise<NewsPost> {
  return apiClient.post<NewsPost>(`/admin/news/${id}/actions`, { action, version }, { inlineCodes: NEWS_INLINE_CODES });
}

export function useRunNewsPostAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runNewsPostAction,
    onSuccess: (post) => {
      queryClient.setQueryData(newsKeys.post(post.id), post);
      void queryClient.invalidateQueries({ queryKey: newsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: newsKeys.history(post.id) });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
