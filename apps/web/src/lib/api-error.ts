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

/**
 * An answer that names fields (400 `validation`, 409 `already_used` for an e-mail or a Partita IVA
 * someone else has): the form puts each text on its field and keeps what was typed.
 */
export function hasFieldErrors(error: unknown): error is ApiError & { fields: FieldError[] } {
  return isApiError(error) && (error.code === 'validation' || error.code === 'already_used') && (error.fields?.length ?? 0) > 0;
}

/**
 * A record's address that leads to no record: 404, or 400 when the id in the address is not even an id
 * (`/customers/abc`, `?merchant=abc`). Its page (`RecordNotFound`) or drawer (`FailureAlert`'s `missing`)
 * says so in words rather than as an error.
 */
export function isMissingRecord(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || (error.status === 400 && error.code === 'validation'));
}
