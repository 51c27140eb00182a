import { z } from 'zod';
import type { Language } from './app-info.ts';
import { message, type MessageKey } from './messages.ts';

/**
 * Bounds of S12, the same on both sides: the forms check them as the user types and the API
 * enforces them again.
 */
export const BOUNDS = {
  emailMax: 320,
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 100,
  newsTitleMin: 3,
  newsTitleMax: 200,
  newsSummaryMax: 500,
  newsBodyMax: 100_000,
  pageSizeMax: 100,
  searchMax: 200,
  urlMax: 500,
} as const;

export const emailSchema = z.email().max(BOUNDS.emailMax);

/**
 * Characters that change how a name is drawn without being seen: bidirectional controls (the
 * right-to-left override turns "Rossi‮gpj.exe" around on screen, in e-mails and in exports) and
 * zero-width ones (two names that look the same, one search that cannot find it). Names refuse them
 * (issue 30): U+061C, U+180E, U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+FEFF.
 */
const INVISIBLE_FORMATTING = /[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

export function hasInvisibleFormatting(value: string): boolean {
  return INVISIBLE_FORMATTING.test(value);
}

/** A person's or a business's name: trimmed, `min`–`max` characters, no invisible formatting. */
export function nameSchema(max: number = BOUNDS.nameMax, min = 1) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((value) => !hasInvisibleFormatting(value), keyed('invalid'));
}
export const passwordSchema = z.string().min(BOUNDS.passwordMin).max(BOUNDS.passwordMax);

type CheckedIssue = { code?: string; path?: PropertyKey[] | undefined };

/**
 * A rule across the fields of an object (SDI 0000000 needs a PEC, a window ends after it starts…),
 * for `.check(ruleAcrossFields(rule))`. zod runs a `superRefine` of an object only when none of its
 * fields has an aborting issue: a telephone that is not a number, a number typed as text or a field
 * left out was enough to skip the rule, so a form learnt of it only on its next submit and the API's
 * 400 left it out. This one runs whatever the other fields hold: the rule sees the fields that have
 * no issue of their own (the others are left out, as if not given), and says nothing about a field
 * that already has its own text.
 */
export function ruleAcrossFields<T extends object>(rule: (value: Partial<T>, context: z.RefinementCtx<T>) => void): z.core.$ZodCheck<T> {
  return z.superRefine<T>(
    (value, context) => {
      const issues = context.issues as CheckedIssue[];
      const withIssues = new Set(issues.map((issue) => String(issue.path?.[0] ?? '')));
      const valid = Object.fromEntries(Object.entries(value).filter(([key]) => !withIssues.has(key))) as Partial<T>;
      const before = issues.length;
      rule(valid, context);
      for (let index = issues.length - 1; index >= before; index -= 1) {
        if (withIssues.has(String(issues[index]?.path?.[0] ?? ''))) issues.splice(index, 1);
      }
    },
    {
      // Not when the value is no object at all, or the object itself has an issue (other than keys it does not know).
      when: (payload) =>
        typeof payload.value === 'object' &&
        payload.value !== null &&
        !(payload.issues as CheckedIssue[]).some((issue) => (issue.path?.length ?? 0) === 0 && issue.code !== 'unrecognized_keys'),
    },
  );
}

/** Marks a refinement with the message key it should be reported with (e.g. the terms checkbox). */
export function keyed(key: MessageKey): { params: { messageKey: MessageKey } } {
  return { params: { messageKey: key } };
}

type IssueLike = {
  code: string;
  path: PropertyKey[];
  message?: string;
  input?: unknown;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  keys?: string[];
  params?: Record<string, unknown>;
};

/** The field an issue belongs to, as a dotted path ("address.city"); "" for the whole body. */
export function issueField(issue: IssueLike): string {
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    return [...issue.path.map(String), issue.keys[0]].join('.');
  }
  return issue.path.map(String).join('.');
}

/** zod reports a missing value as `invalid_type` "... received undefined" (input is not kept). */
function isMissing(issue: IssueLike): boolean {
  if ('input' in issue) return issue.input === undefined || issue.input === null || issue.input === '';
  return /received (undefined|null)/.test(issue.message ?? '');
}

/**
 * Left blank: nothing typed, nothing chosen. Known only when zod reports the input (`reportInput`,
 * which the forms ask for); a rule across fields (`superRefine`) reports the whole object, never blank.
 */
function isBlank(issue: IssueLike): boolean {
  if (!('input' in issue)) return false;
  const { input } = issue;
  return input === undefined || input === null || input === '' || (Array.isArray(input) && input.length === 0);
}

/** Turns one zod issue into the S12 text for its field, in the given language. */
export function issueMessage(issue: IssueLike, language: Language): string {
  const dotted = issueField(issue);
  // The label of the last named part: "merchantIds.3" is about merchantIds, not "3".
  const field = dotted === '' ? 'body' : (dotted.split('.').filter((part) => !/^\d+$/.test(part)).at(-1) ?? dotted);
  const key = issue.params?.['messageKey'];
  // A blank field (or an empty list) reads "<field> is required" whatever rule it failed first, its
  // format's or its length's: "Partita IVA non è valida" for an empty field sent people looking for a
  // mistake in what they had not typed.
  if ((key === undefined || key === 'invalid') && isBlank(issue)) return message('required', language, { field });
  if (typeof key === 'string') {
    const bound = (name: 'min' | 'max') => {
      const value = issue.params?.[name];
      return typeof value === 'number' || typeof value === 'string' ? { [name]: value } : {};
    };
    const texts = Object.fromEntries((['after', 'placeholder', 'allowed'] as const).flatMap((name) => (typeof issue.params?.[name] === 'string' ? [[name, issue.params[name]]] : [])));
    return message(key as MessageKey, language, { field, ...bound('min'), ...bound('max'), ...texts });
  }
  switch (issue.code) {
    case 'invalid_type':
      return isMissing(issue) ? message('required', language, { field }) : message('invalid', language, { field });
    case 'too_small':
      if (issue.origin === 'string') {
        if (Number(issue.minimum) <= 1) return message('required', language, { field });
        return message('minLength', language, { field, min: Number(issue.minimum) });
      }
      // A number below its bound says the bound, written as the reader writes numbers.
      if (issue.origin === 'number' && typeof issue.minimum === 'number') return message('minValue', language, { field, min: issue.minimum });
      // A list shorter than one is empty (the API's issues carry no input).
      if (issue.origin === 'array' && Number(issue.minimum) <= 1) return message('required', language, { field });
      return message('invalid', language, { field });
    case 'too_big':
      if (issue.origin === 'string') return message('maxLength', language, { field, max: Number(issue.maximum) });
      if (issue.origin === 'number' && typeof issue.maximum === 'number') return message('maxValue', language, { field, max: issue.maximum });
      return message('invalid', language, { field });
    default:
      return message('invalid', language, { field });
  }
}
