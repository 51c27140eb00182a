import type { coverUploadResponseSchema } from '@sf/contract/news';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type CoverUpload = z.infer<typeof coverUploadResponseSchema>;

export const COVER_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
export const COVER_MAX_BYTES = 5 * 1024 * 1024;

export function uploadNewsCover(file: File): Promise<CoverUpload> {
  const form = new FormData();
  form.append('file', file);
  return apiClient.upload<CoverUpload>('/admin/news/cover', form);
}

export function useUploadNewsCover() {
  return useMutation({ mutationFn: uploadNewsCover });
}
