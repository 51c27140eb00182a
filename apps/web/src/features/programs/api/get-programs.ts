import { listProgramsQuerySchema, type Program } from '@sf/contract/programs';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAllPages } from '../../../lib/all-pages.ts';
import { apiClient } from '../../../lib/api-client.ts';

export type ProgramPage = { items: Program[]; total: number; page: number; pageSize: number };

export const PROGRAMS_PATH = '/admin/programs';

export const programKeys = {
  all: ['programs'] as const,
  lists: () => [...programKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...programKeys.lists(), query] as const,
  program: (id: string) => [...programKeys.all, 'program', id] as const,
};

export function getPrograms(query: Record<string, string>, signal?: AbortSignal): Promise<ProgramPage> {
  return apiClient.get<ProgramPage>(PROGRAMS_PATH, { params: query, signal });
}

export function usePrograms(query: Record<string, string>) {
  return useQuery(queryOptions({ queryKey: programKeys.list(query), queryFn: ({ signal }) => getPrograms(query, signal), placeholderData: keepPreviousData }));
}

/** Every program as select options, by name (all of them, page after page). */
export function useProgramOptions(options: { isEnabled?: boolean } = {}): { value: string; label: string; program: Program }[] {
  const query = useQuery({
    queryKey: [...programKeys.lists(), 'all'],
    queryFn: ({ signal }) => fetchAllPages(getPrograms, { sort: 'name', order: 'asc' }, { signal }),
    enabled: options.isEnabled ?? true,
  });
  return (query.data ?? []).map((program) => ({ value: program.id, label: program.name, program }));
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listProgramsQuerySchema, queryKey: programKeys.list };
