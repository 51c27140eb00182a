import { Alert } from '@mantine/core';
import { describeApiError } from '../../lib/api-client.ts';
import { isMissingRecord } from '../../lib/api-error.ts';

type Props = {
  error: unknown;
  /**
   * A record's drawer names what is not there (`?merchant=<old id>`, `?merchant=abc`) in its own words,
   * as a record's page does (`RecordNotFound`), rather than the API's "… non trovato" or "Id non è
   * valido". Other failures (network, 5xx) keep `describeApiError`'s text.
   */
  missing?: { title: string; text: string };
};

/**
 * A failed request in the words the user reads (S11, `describeApiError`), where it happened: a page or
 * drawer that shows its own failure asks silently (`isSilent`), so this is the only message.
 */
export function FailureAlert({ error, missing }: Props) {
  // No record is not a fault: said in grey, as the record page says it without red.
  if (missing && isMissingRecord(error)) {
    return (
      <Alert color="gray" role="alert" title={missing.title}>
        {missing.text}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert">
      {describeApiError(error)}
    </Alert>
  );
}
