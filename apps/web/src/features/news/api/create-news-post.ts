import type { CreateNewsPost, NewsPost } from '@sf/contract/news';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

export function createNewsPost(body: CreateNewsPost): Promise<NewsPost> {
  return apiClient.post<NewsPost>('/admin/news', body);
}

export function useCreateNewsPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNewsPost,
    onSuccess: (post) => {
      queryClient.setQueryData(newsKeys.post(post.id), post);
      void queryClient.invalidateQueries({ queryKey: newsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
