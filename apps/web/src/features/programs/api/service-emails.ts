import type { PreviewServiceEmail, ServiceEmailKind, ServiceEmailPreview, ServiceEmailSetting, UpdateServiceEmail } from '@sf/contract/service-emails';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { PROGRAMS_PATH, programKeys } from './get-programs.ts';

const serviceEmailKeys = (programId: string) => [...programKeys.program(programId), 'service-emails'] as const;

// The tab says its own failure (`FailureAlert`, `StaleDataNotice`): a toast as well said it twice.
export function getServiceEmails(programId: string, signal?: AbortSignal): Promise<{ items: ServiceEmailSetting[] }> {
  return apiClient.get<{ items: ServiceEmailSetting[] }>(`${PROGRAMS_PATH}/${programId}/service-emails`, { signal, isSilent: true });
}

/** One message's setting as stored now (the API reads them all at once: four small rows). */
export async function getServiceEmail(programId: string, kind: ServiceEmailKind): Promise<ServiceEmailSetting> {
  const { items } = await getServiceEmails(programId);
  const setting = items.find((item) => item.kind === kind);
  if (!setting) throw new Error(`No service e-mail setting ${kind}`);
  return setting;
}

export function useServiceEmails(programId: string) {
  return useQuery({ queryKey: serviceEmailKeys(programId), queryFn: ({ signal }) => getServiceEmails(programId, signal) });
}

export function useSaveServiceEmail(programId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, ...body }: UpdateServiceEmail & { kind: ServiceEmailKind }) =>
      apiClient.put<ServiceEmailSetting>(`${PROGRAMS_PATH}/${programId}/service-emails/${kind}`, body, { isSilent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceEmailKeys(programId) }),
  });
}

export function usePreviewServiceEmail(programId: string) {
  return useMutation({
    mutationFn: ({ kind, ...body }: PreviewServiceEmail & { kind: ServiceEmailKind }) =>
      apiClient.post<ServiceEmailPreview>(`${PROGRAMS_PATH}/${programId}/service-emails/${kind}/preview`, body, { isSilent: true }),
  });
}
