import type { CreateProgram, Program } from '@sf/contract/programs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PROGRAMS_PATH, programKeys } from './get-programs.ts';

export function createProgram(body: CreateProgram): Promise<Program> {
  return apiClient.post<Program>(PROGRAMS_PATH, body);
}

export function useCreateProgram() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createProgram, onSuccess: () => client.invalidateQueries({ queryKey: programKeys.lists() }) });
}
