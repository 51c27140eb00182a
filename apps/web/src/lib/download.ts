import { apiClient, type RequestOptions } from './api-client.ts';

/**
 * Files from the API (a list's `export.csv`), kept out of api-client.ts so the sign-in page does not
 * carry them.
 */
export type Download = { blob: Blob; filename: string };

/** The file name of `Content-Disposition` (RFC 6266: `filename*=UTF-8''…` wins over `filename="…"`). */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape falls through to the plain form.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
  return name || fallback;
}

/** A file with the same token, CSRF, refresh and error handling as any call. */
export async function download(path: string, options: RequestOptions & { fallbackName?: string } = {}): Promise<Download> {
  const { fallbackName, ...rest } = options;
  const response = await apiClient.raw(path, { ...rest, accept: '*/*' });
  const fallback = fallbackName ?? path.split('/').pop() ?? 'download';
  return { blob: await response.blob(), filename: filenameFromDisposition(response.headers.get('Content-Disposition'), fallback) };
}
