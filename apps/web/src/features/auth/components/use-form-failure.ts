import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { message } from '@sf/contract/messages';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, type FieldErrorTarget } from '../../../lib/form-resolver.ts';
import { currentLanguage } from '../../../lib/i18n.ts';

/**
 * What went wrong with a submitted auth form, kept as a description rather than a text so that it is
 * re-worded when the user switches language.
 */
type Failure = { kind: 'login-incorrect' } | { kind: 'api'; error: unknown } | { kind: 'text'; key: string };

export function useFormFailure(form: FieldErrorTarget) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const { t } = useTranslation();
  const text =
    failure === null
      ? null
      : failure.kind === 'login-incorrect'
        ? message('loginIncorrect', currentLanguage())
        : failure.kind === 'text'
          ? t(failure.key)
          : describeApiError(failure.error);
  return {
    text,
    clear: () => setFailure(null),
    loginIncorrect: () => setFailure({ kind: 'login-incorrect' }),
    show: (key: string) => setFailure({ kind: 'text', key }),
    /** 400 `validation` goes onto the fields; the rest becomes the form's alert (and is logged). */
    fromError(error: unknown) {
      if (isApiError(error) && error.code === 'validation' && applyServerFieldErrors(form, error.fields)) {
        setFailure(null);
        return;
      }
      if (!isApiError(error)) console.error(error);
      setFailure({ kind: 'api', error });
    },
  };
}
