import type { ErrorCode, FieldError } from '@sf/contract/errors';

/**
 * Thrown anywhere in a request; the error handler turns it into `{ error: { code, message, fields,
 * requestId } }` with the given status (STYLE.md example 6: throw rather than send).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthenticated = (code: 'unauthenticated' | 'token_expired' | 'invalid_token', message: string) =>
  new AppError(401, code, message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const validationFailed = (message: string, fields: FieldError[]) =>
  new AppError(400, 'validation', message, fields);
