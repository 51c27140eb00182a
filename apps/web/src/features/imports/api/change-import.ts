import type { ImportDetail } from '@sf/contract/imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { IMPORTS_PATH, importKeys } from './get-imports.ts';

/** Starts a checked import, or cancels one (a running import stops before its next batch). */
export function changeImport({ id, action }: { id: string; action: 'start' | 'cancel' }): Promise<ImportDetail> {
  return apiClient.post<ImportDetail>(`${IMPORTS_PATH}/${id}/${action}`);
}

export function useChangeImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeImport,
    onSuccess: (detail) => {
      client.setQueryData(importKeys.detail(detail.id), detail);
      void client.invalidateQueries({ queryKey: ['customers'] });
      return client.invalidateQueries({ queryKey: importKeys.lists() });
    },
  });
}
