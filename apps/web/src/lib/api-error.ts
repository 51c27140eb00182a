import type { FieldError } from '@sf/contract/errors';

/**
 * Every failed API call rejects with this. `code` is the API's error code (contract errors.ts) or
 * `network` when no answer came back; `fields` carries the per-field texts of a 400 `validation`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields?: FieldError[];
  readonly requestId?: string;

  constructor(init: { status: number; code: string; message: string; fields?: FieldError[]; requestId?: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    if (init.fields) this.fields = init.fields;
    if (init.requestId) this.requestId = init.requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
