import { useState } from 'react';
import type * as MessagesModule from '@sf/contract/messages';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, type FieldErrorTarget } from '../../../lib/form-resolver.ts';
import { currentLanguage, useTexts } from '../../../lib/texts.ts';

type Messages = typeof MessagesModule;
let messages: Messages | null = null;
let loadingMessages: Promise<Messages> | null = null;
/**
 * The contract's wording (with every field label of every area) is not needed for the sign-in page's
 * first paint: it is fetched when a form is first touched (`preloadFormFailureTexts`) or, at the
 * latest, when a failure needs it (decision 010).
 */
export function preloadFormFailureTexts(): Promise<Messages> {
  loadingMessages ??= import('@sf/contract/messages').then((module) => (messages = module));
  return loadingMessages;
}

/**
 * What went wrong with a submitted auth form, kept as a description rather than a text so that it is
 * re-worded when the user switches language.
 */
type Failure = { kind: 'login-incorrect' } | { kind: 'api'; error: unknown } | { kind: 'text'; key: string };

export function useFormFailure(form: FieldErrorTarget) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const { t } = useTexts();
  const text =
    failure === null
      ? null
      : failure.kind === 'login-incorrect'
        ? (messages?.message('loginIncorrect', currentLanguage()) ?? '')
        : failure.kind === 'text'
          ? t(failure.key)
          : describeApiError(failure.error);
  return {
    text,
    clear: () => setFailure(null),
    loginIncorrect: () => void preloadFormFailureTexts().then(() => setFailure({ kind: 'login-incorrect' })),
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
