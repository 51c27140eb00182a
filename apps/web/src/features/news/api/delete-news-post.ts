import type { NewsPost } from '@sf/contract/news';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

/** A draft is deleted (204, nothing back); a post customers have seen is archived instead (200, the post). */
export function deleteNewsPost(id: number): Promise<NewsPost | undefined> {
  return apiClient.delete<NewsPost | undefined>(`/admin/news/${id}`);
}

export function useDeleteNewsPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNewsPost,
    onSuccess: (post, id) => {
      if (post) queryClient.setQueryData(newsKeys.post(id), post);
      else queryClient.removeQueries({ queryKey: newsKeys.post(id) });
      void queryClient.invalidateQueries({ queryKey: newsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
