import type { Program } from '@sf/contract/programs';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PROGRAMS_PATH, programKeys } from './get-programs.ts';

export function getProgram(id: string, signal?: AbortSignal): Promise<Program> {
  // No toast: the drawer that asks says what failed.
  return apiClient.get<Program>(`${PROGRAMS_PATH}/${id}`, { signal, isSilent: true });
}

export function useProgram(id: string | null) {
  return useQuery({ queryKey: programKeys.program(id ?? ''), queryFn: ({ signal }) => getProgram(id ?? '', signal), enabled: Boolean(id) });
}
