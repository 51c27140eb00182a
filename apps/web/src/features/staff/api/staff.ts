import { listStaffQuerySchema, type StaffAccount, type UpdateStaffRequest } from '@sf/contract/staff';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export type StaffPage = { items: StaffAccount[]; total: number; page: number; pageSize: number };

export const STAFF_PATH = '/admin/staff';

export const staffKeys = {
  all: ['staff'] as const,
  lists: () => [...staffKeys.all, 'list'] as const,
  list: (query: Record<string, string>) => [...staffKeys.lists(), query] as const,
  waiting: () => [...staffKeys.all, 'waiting'] as const,
};

export function getStaff(query: Record<string, string>, signal?: AbortSignal): Promise<StaffPage> {
  return apiClient.get<StaffPage>(STAFF_PATH, { params: query, signal });
}

export function useStaff(query: Record<string, string>) {
  return useQuery(queryOptions({ queryKey: staffKeys.list(query), queryFn: ({ signal }) => getStaff(query, signal), placeholderData: keepPreviousData }));
}

/** The accounts waiting for approval (the menu's badge): the list's count of active accounts without a role. */
export const WAITING_QUERY = { role: 'none', status: 'active' } as const;

export function useWaitingStaffCount(options: { isEnabled?: boolean } = {}) {
  return useQuery({
    queryKey: staffKeys.waiting(),
    queryFn: ({ signal }) => getStaff({ ...WAITING_QUERY, pageSize: '1' }, signal).then((page) => page.total),
    enabled: options.isEnabled ?? true,
    staleTime: 60_000,
  });
}

export function updateStaff({ uid, ...body }: UpdateStaffRequest & { uid: string }): Promise<StaffAccount> {
  return apiClient.patch<StaffAccount>(`${STAFF_PATH}/${uid}`, body, { isSilent: true });
}

/** Approve (grant a role), change a role, disable or enable: the lists and the badge follow. */
export function useUpdateStaff() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateStaff,
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

/** What the list's prefetch needs (app/prefetch-routes.ts): the schema its screen reads its address with, and its key. */
export const listDeclaration = { schema: listStaffQuerySchema, queryKey: staffKeys.list };
