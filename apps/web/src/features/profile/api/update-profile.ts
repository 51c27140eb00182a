import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffUser } from '@sf/contract/auth';
import type { UpdateProfileRequest } from '@sf/contract/profile';
import { apiClient } from '../../../lib/api-client.ts';
import { sessionStore } from '../../../lib/session.ts';
import { profileQueryKey } from './get-profile.ts';

export type { UpdateProfileRequest };

export function updateProfile(patch: UpdateProfileRequest): Promise<StaffUser> {
  return apiClient.patch<StaffUser>('/admin/me', patch);
}

/** The saved profile becomes the current user at once (name in the header, time zone of the dates). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(profileQueryKey, user);
      sessionStore.updateUser(user);
    },
  });
}
