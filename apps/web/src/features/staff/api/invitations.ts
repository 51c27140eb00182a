import type { CreateInvitationRequest, StaffInvitation } from '@sf/contract/staff-invitations';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export type InvitationPage = { items: StaffInvitation[]; total: number; page: number; pageSize: number };

export const INVITATIONS_PATH = '/admin/staff/invitations';

export const invitationKeys = {
  all: ['staff-invitations'] as const,
  list: (query: Record<string, string>) => [...invitationKeys.all, 'list', query] as const,
};

export function useInvitations(query: Record<string, string>) {
  return useQuery(
    queryOptions({
      queryKey: invitationKeys.list(query),
      queryFn: ({ signal }) => apiClient.get<InvitationPage>(INVITATIONS_PATH, { params: query, signal }),
      placeholderData: keepPreviousData,
    }),
  );
}

/**
 * The list is read again however the write ends: an invitation whose e-mail did not go out (503) is
 * saved all the same, and one revoked or resent meanwhile by someone else fails here but changed there.
 */
function useInvitationMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: invitationKeys.all }) });
}

export function useCreateInvitation() {
  return useInvitationMutation((body: CreateInvitationRequest) => apiClient.post<StaffInvitation>(INVITATIONS_PATH, body, { isSilent: true }));
}

export function useResendInvitation() {
  return useInvitationMutation((id: string) => apiClient.post<StaffInvitation>(`${INVITATIONS_PATH}/${id}/resend`, undefined, { isSilent: true }));
}

export function useRevokeInvitation() {
  return useInvitationMutation((id: string) => apiClient.delete<null>(`${INVITATIONS_PATH}/${id}`, { isSilent: true }));
}
