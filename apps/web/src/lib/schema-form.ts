import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { SchemaLoader } from './form-resolver.ts';
import { currentLanguage, onLanguageChange } from './texts.ts';

const loadValidator = () => import('./form-validation.ts');

type FieldError = { type: string; message: string };

/**
 * A small form state for flat forms on the sign-in page, where react-hook-form (13 kB gzip) would
 * push the first load over its 150 kB budget (docs/decisions/007). It keeps the behaviour of the other
 * forms: the contract schema checks each field as the user types (once touched) and everything on
 * submit, with the S12 texts in the current language, re-worded when the language changes; a
 * submit cannot run twice at once (S5). Forms of the signed-in area keep react-hook-form.
 */
export function useSchemaForm<T extends Record<string, string>>(options: { initialValues: T; loadSchema: SchemaLoader }) {
  const { loadSchema } = options;
  const [values, setValues] = useState<T>(options.initialValues);
  const [errors, setErrors] = useState<Partial<Record<keyof T & string, FieldError>>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const touched = useRef(new Set<string>());
  const latest = useRef(values);
  latest.current = values;

  const validate = useCallback(
    async (current: T, fields: 'all' | Set<string>) => {
      const [{ validateWithSchema }, schema] = await Promise.all([loadValidator(), loadSchema()]);
      const { issues } = validateWithSchema(schema, current, currentLanguage());
      const found: Partial<Record<string, FieldError>> = {};
      for (const issue of issues) {
        if (fields === 'all' || fields.has(issue.path)) found[issue.path] ??= { type: issue.type, message: issue.message };
      }
      return found as Partial<Record<keyof T & string, FieldError>>;
    },
    [loadSchema],
  );

  // Fetch zod and the schema when the user first focuses a field, before they type: a visit that
  // never touches the form does not download them (decision 010). A submit loads them if still missing.
  const preload = useCallback(() => {
    void Promise.all([loadValidator(), loadSchema()]).catch(() => undefined);
  }, [loadSchema]);

  // Texts already on screen follow a language switch.
  useEffect(() => {
    const onChange = () => {
      if (touched.current.size > 0) void validate(latest.current, touched.current).then(setErrors);
    };
    return onLanguageChange(onChange);
  }, [validate]);

  const getInputProps = (field: keyof T & string) => ({
    name: field,
    value: values[field],
    error: errors[field]?.message,
    onFocus: preload,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...latest.current, [field]: event.currentTarget.value };
      latest.current = next;
      setValues(next);
      touched.current.add(field);
      void validate(next, touched.current).then(setErrors);
    },
  });

  const handleSubmit = (onValid: (values: T) => Promise<void>) => async (event?: FormEvent) => {
    event?.preventDefault();
    if (isSubmitting) return;
    setSubmitting(true);
    try {
      for (const field of Object.keys(latest.current)) touched.current.add(field);
      const found = await validate(latest.current, 'all');
      setErrors(found);
      if (Object.keys(found).length === 0) await onValid(latest.current);
    } finally {
      setSubmitting(false);
    }
  };

  return {
    values,
    errors,
    isSubmitting,
    getInputProps,
    handleSubmit,
    getValues: () => latest.current,
    /** Places a text on a field, e.g. the API's per-field answer to a 400 `validation`. */
    setError: (field: keyof T & string, error: FieldError) => setErrors((previous) => ({ ...previous, [field]: error })),
  };
}
