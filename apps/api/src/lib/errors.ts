import type { Language } from '@sf/contract/app-info';
import type { ErrorCode, FieldError } from '@sf/contract/errors';
import { errorText, isErrorTextKey, type ErrorParams, type ErrorTextKey } from '@sf/contract/error-texts';
import { message, type MessageKey } from '@sf/contract/messages';
import { issueField, issueMessage } from '@sf/contract/validation';

/**
 * A field's problem, as a text of the field messages (`required`, `invalid`, `taken`…, with the
 * field's translated label) or of the error catalogue; translated by the error handler.
 */
export type FieldIssue =
  | { field: string; message: MessageKey; min?: number | string; max?: number | string; /** Names the field by another label's key. */ label?: string }
  | { field: string; text: ErrorTextKey; params?: ErrorParams }
  /** A zod issue of a schema checked in code (not by the route), worded as the route's own 400s. */
  | { field: string; issue: ZodIssueLike };

type ZodIssueLike = Parameters<typeof issueMessage>[0];

export type ErrorDetail = {
  /** The catalogue's text, when it is not the code's own (`not_found` has one per entity…). */
  text?: ErrorTextKey;
  params?: ErrorParams;
  fields?: FieldIssue[];
  headers?: Record<string, string>;
};

/**
 * The one way to raise an error in a request (CONTRIBUTING.md: throw rather than send): a code from
 * the contract's catalogue (`packages/contract/src/errors.ts`) and parameters; the error handler
 * answers `{ error: { code, message, fields, requestId } }` with the given status, the texts in the
 * caller's language (`packages/contract/src/error-texts.ts`, `messages.ts`). Nothing is translated at
 * the throw site.
 */
export class AppError extends Error {
  readonly text: ErrorTextKey | undefined;
  readonly params: ErrorParams;
  readonly fieldIssues: FieldIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    detail: ErrorDetail = {},
  ) {
    super(detail.text ?? code);
    this.name = 'AppError';
    this.text = detail.text;
    this.params = detail.params ?? {};
    this.fieldIssues = detail.fields;
    this.headers = detail.headers;
  }

  /** The answer's texts in `language`: the error's message, and each field's. */
  render(language: Language): { message: string; fields?: FieldError[] } {
    const fields = this.fieldIssues?.map((issue) => ({ field: issue.field, message: fieldText(issue, language) }));
    // Without a text of its own, the error says what its first field says ("Partita IVA già in uso").
    const text = this.text
      ? errorText(this.text, language, this.params)
      : (fields?.[0]?.message ?? (isErrorTextKey(this.code) ? errorText(this.code, language, this.params) : this.code));
    return { message: text, ...(fields ? { fields } : {}) };
  }
}

/** The label of a field path: its last named part ("tiers.2.minPoints" → minPoints, "merchantIds.3" → merchantIds). */
export function fieldNameOf(path: string): string {
  return path.split('.').filter((part) => !/^\d+$/.test(part)).at(-1) ?? path;
}

function fieldText(issue: FieldIssue, language: Language): string {
  if ('text' in issue) return errorText(issue.text, language, issue.params);
  if ('issue' in issue) return issueMessage(issue.issue, language);
  return message(issue.message, language, {
    field: issue.label ?? fieldNameOf(issue.field),
    ...(issue.min === undefined ? {} : { min: issue.min }),
    ...(issue.max === undefined ? {} : { max: issue.max }),
  });
}

export const unauthenticated = (code: 'unauthenticated' | 'token_expired' | 'invalid_token', text?: ErrorTextKey) =>
  new AppError(401, code, text ? { text } : {});
export const forbidden = (text?: ErrorTextKey) => new AppError(403, 'forbidden', text ? { text } : {});
/** 404: `entity` is the field label of what was not found ("Cliente richiesto non trovato"). */
export const notFound = (entity: string) => new AppError(404, 'not_found', { params: { entity } });
/** 400 `validation` from the issues of a schema checked in code. */
export const schemaFailed = (issues: readonly ZodIssueLike[]) => validationFailed(issues.map((issue) => ({ field: issueField(issue), issue })));
export const versionConflict = () => new AppError(409, 'version_conflict');
/** 400 `validation` naming one or more fields; the first field's text is the message. */
export const validationFailed = (fields: FieldIssue[]) => new AppError(400, 'validation', { fields });
/** 400 `validation` on one field: `required`, `invalid`… with its label. */
export const fieldError = (field: string, key: MessageKey = 'invalid', bounds: { min?: number | string; max?: number | string } = {}) =>
  validationFailed([{ field, message: key, ...bounds }]);

/**
 * 409 `already_used`: a value that must be unique (a customer's e-mail, a merchant's Partita IVA) is
 * someone else's. The field's text ("Partita IVA già in uso") is the message and lands on the form's field.
 */
export const alreadyUsed = (field: string) => new AppError(409, 'already_used', { fields: [{ field, message: 'taken' }] });
