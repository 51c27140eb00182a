import { useEffect } from 'react';
import type { FieldErrors, FieldValues, Resolver, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { message } from '@sf/contract/messages';
import { issueField, issueMessage } from '@sf/contract/validation';
import { currentLanguage, i18n } from './i18n.ts';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

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

/**
 * A react-hook-form resolver that validates with a contract schema and words every problem exactly as
 * the API would (S12, `issueMessage`), in the language the user has chosen at that moment. An empty
 * field reads "<field> is required" rather than "not valid".
 */
export function contractResolver<T extends FieldValues>(
  schema: z.ZodType,
  refine?: (values: T) => { field: string; message: string } | null,
): Resolver<T> {
  return async (values) => {
    const language = currentLanguage();
    const result = schema.safeParse(values, { reportInput: true });
    const errors: Record<string, unknown> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const dotted = issueField(issue);
        if (!dotted) continue;
        const hasKey = typeof (issue as { params?: Record<string, unknown> }).params?.['messageKey'] === 'string';
        const field = dotted.split('.').at(-1) ?? dotted;
        const text =
          !hasKey && 'input' in issue && isEmpty(issue.input)
            ? message('required', language, { field })
            : issueMessage(issue, language);
        setPath(errors, dotted.split('.'), { type: issue.code, message: text });
      }
    }
    const extra = refine?.(values);
    if (extra) setPath(errors, extra.field.split('.'), { type: 'custom', message: extra.message });
    if (Object.keys(errors).length > 0) return { values: {}, errors: errors as FieldErrors<T> };
    return { values: (result.success ? result.data : values) as T, errors: {} };
  };
}

/** Shows the API's per-field texts (400 `validation`) on the form's fields; true when any was placed. */
export function applyServerFieldErrors<T extends FieldValues>(form: UseFormReturn<T>, fields: { field: string; message: string }[] | undefined): boolean {
  let isPlaced = false;
  for (const { field, message: text } of fields ?? []) {
    if (field in form.getValues()) {
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
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [form]);
}
