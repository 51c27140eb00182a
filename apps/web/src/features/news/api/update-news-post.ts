import type { NewsPost, UpdateNewsPost } from '@sf/contract/news';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

export function updateNewsPost({ id, body }: { id: number; body: UpdateNewsPost }): Promise<NewsPost> {
  return apiClient.patch<NewsPost>(`/admin/news/${id}`, body);
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
