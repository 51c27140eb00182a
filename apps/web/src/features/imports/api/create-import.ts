import type { ImportDetail, ImportKind } from '@sf/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { IMPORTS_PATH, importKeys } from './get-imports.ts';

export type CreateImportInput = { file: File; kind: ImportKind; mapping: Record<string, string>; programId?: string | undefined; sendWelcome?: boolean; dryRun: boolean };

/** Uploads the file with its mapping: the server checks every row (the dry run) and, unless dryRun, starts. */
export function createImport(input: CreateImportInput): Promise<ImportDetail> {
  const form = new FormData();
  form.append('kind', input.kind);
  form.append('dryRun', String(input.dryRun));
  form.append('mapping', JSON.stringify(input.mapping));
  if (input.programId) form.append('programId', input.programId);
  if (input.sendWelcome) form.append('sendWelcome', 'true');
  form.append('file', input.file, input.file.name);
  return apiClient.upload<ImportDetail>(IMPORTS_PATH, form);
}

export function useCreateImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createImport,
    onSuccess: (detail) => {
      client.setQueryData(importKeys.detail(detail.id), detail);
      return client.invalidateQueries({ queryKey: importKeys.lists() });
    },
  });
}
