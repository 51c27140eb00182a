import type { ErrorCode, FieldError } from '@sf/contract/errors';
import type { Language } from '@sf/contract/app-info';
import { message } from '@sf/contract/messages';

/**
 * Thrown anywhere in a request; the error handler turns it into `{ error: { code, message, fields,
 * requestId } }` with the given status (CONTRIBUTING.md convention 6: throw rather than send).
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

/**
 * An error whose text is rendered in the caller's language by the error handler (CONTRIBUTING.md
 * convention 12: translated once, where answered): services throw a code and parameters, and need not
 * know the request's language.
 */
export class CodedError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly render: (language: Language) => { message: string; fields?: FieldError[] },
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.name = 'CodedError';
  }
}

/**
 * 409 `already_used`: a value that must be unique (a customer's e-mail, a merchant's Partita IVA) is
 * someone else's. The field's text ("Partita IVA già in uso") lands on the form's field.
 */
export const alreadyUsed = (field: string) =>
  new CodedError(409, 'already_used', (language) => {
    const text = message('taken', language, { field });
    return { message: text, fields: [{ field, message: text }] };
  });
