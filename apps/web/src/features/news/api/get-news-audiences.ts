import type { NewsAudienceOptions } from '@sf/contract/news';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { newsKeys } from './get-news-posts.ts';

/** The programs and merchants a post may be addressed to (editors may not read those lists themselves). */
export function useNewsAudiences(isEnabled: boolean) {
  return useQuery({
    queryKey: [...newsKeys.all, 'audiences'],
    queryFn: ({ signal }) => apiClient.get<NewsAudienceOptions>('/admin/news/audiences', { signal }),
    enabled: isEnabled,
    staleTime: 60_000,
  });
}
