import { useEffect } from 'react';
import type { FieldErrors, FieldValues, Resolver, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { currentLanguage, onLanguageChange } from './texts.ts';

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      node[key] ??= value;
      return;
    }
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  });
}

export type SchemaLoader = () => Promise<z.ZodType>;

const loadValidator = () => import('./form-validation.ts');

/**
 * A react-hook-form resolver that validates with a contract schema and words every problem exactly
 * as the API would (S12), in the language chosen at that moment. The schema comes from a loader
 * (`() => import('@sf/contract/auth').then((m) => m.loginRequestSchema)`) so that zod stays out of
 * the sign-in page's first load; `preloadResolver` fetches it right after the first paint.
 * `refine` adds checks the schema cannot make alone (e.g. "the two passwords match").
 */
export function contractResolver<T extends FieldValues>(
  loadSchema: SchemaLoader,
  refine?: (values: T) => { field: string; message: string } | null,
): Resolver<T> {
  // The validator watches presses from now on (form-validation.ts `afterPress`): before the first blur.
  void loadValidator();
  return async (values, _context, options) => {
    const [{ validateWithSchema, afterPress }, schema] = await Promise.all([loadValidator(), loadSchema()]);
    // A field's own check (a blur) waits for the press under way, which may be the submit's.
    if (options.names) await afterPress();
    const { data, issues } = validateWithSchema(schema, values, currentLanguage());
    const errors: Record<string, unknown> = {};
    for (const issue of issues) setPath(errors, issue.path.split('.'), { type: issue.type, message: issue.message });
    const extra = refine?.(values);
    if (extra) setPath(errors, extra.field.split('.'), { type: 'custom', message: extra.message });
    if (Object.keys(errors).length > 0) return { values: {}, errors: errors as FieldErrors<T> };
    return { values: (data ?? values) as T, errors: {} };
  };
}

/** Starts loading the validation code and a form's schema before the user types. */
export function usePreloadValidation(loadSchema: SchemaLoader): void {
  useEffect(() => {
    void Promise.all([loadValidator(), loadSchema()]).catch(() => undefined);
  }, [loadSchema]);
}

/** What a form must offer to show the API's per-field texts: react-hook-form's and useSchemaForm's both do. */
export type FieldErrorTarget = {
  getValues(): object;
  setError(field: never, error: { type: string; message: string }): void;
};

/** Shows the API's per-field texts (400 `validation`) on the form's fields; true when any was placed. */
export function applyServerFieldErrors(form: FieldErrorTarget, fields: { field: string; message: string }[] | undefined): boolean {
  let isPlaced = false;
  const values = form.getValues() as Record<string, unknown>;
  for (const { field, message: text } of fields ?? []) {
    // `address.city` or `tiers.1.name` land on that nested field when the form has its parent.
    if (field.split('.')[0]! in values) {
      form.setError(field as never, { type: 'server', message: text });
      isPlaced = true;
    }
  }
  return isPlaced;
}

/** Re-words the texts already on screen when the user switches language. */
export function useRevalidateOnLanguageChange<T extends FieldValues>(form: UseFormReturn<T>): void {
  useEffect(() => {
    const onChange = () => {
      const names = Object.keys(form.formState.errors);
      if (names.length > 0) void form.trigger(names as never);
    };
    return onLanguageChange(onChange);
  }, [form]);
}
