import type { Program } from '@sf/contract/programs';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAllPages, type ListPage } from '../../../lib/all-pages.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * The programs a new customer may join: the active ones, by name (decision 035: the program is chosen
 * when the customer is created, and only it welcomes them). Read when the new-customer form opens, not
 * with the list; the programs feature owns the programs' own screens.
 */
function getActivePrograms(query: Record<string, string>, signal?: AbortSignal): Promise<ListPage<Program>> {
  return apiClient.get<ListPage<Program>>('/admin/programs', { params: { ...query, status: 'active' }, signal });
}

export const enrollingProgramsQuery = queryOptions({
  queryKey: ['programs', 'list', 'enrolling'] as const,
  queryFn: ({ signal }) => fetchAllPages(getActivePrograms, { sort: 'name', order: 'asc' }, { signal }),
});

/** Asked only by the new-customer form (`isEnabled`): an edit does not change the programs joined. */
export function useEnrollingPrograms(isEnabled: boolean): { value: string; label: string }[] | undefined {
  const query = useQuery({ ...enrollingProgramsQuery, enabled: isEnabled });
  return query.data?.map((program) => ({ value: program.id, label: program.name }));
}
