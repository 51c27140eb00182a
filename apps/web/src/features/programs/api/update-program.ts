import type { Program, UpdateProgram } from '@sf/contract/programs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { VERSION_CONFLICT_CODES } from '../../../lib/version-conflict.ts';
import { PROGRAMS_PATH, programKeys } from './get-programs.ts';

export function updateProgram({ id, ...body }: UpdateProgram & { id: string }): Promise<Program> {
  // The form shows a version conflict itself, with its reload (`VersionConflictNotice`).
  return apiClient.patch<Program>(`${PROGRAMS_PATH}/${id}`, body, { inlineCodes: VERSION_CONFLICT_CODES });
}

export function useUpdateProgram() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateProgram,
    onSuccess: (program) => {
      client.setQueryData(programKeys.program(program.id), program);
      return client.invalidateQueries({ queryKey: programKeys.lists() });
    },
  });
}
