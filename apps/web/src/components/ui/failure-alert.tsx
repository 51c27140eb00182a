import { Alert } from '@mantine/core';
import { describeApiError } from '../../lib/api-client.ts';

/**
 * A failed request in the words the user reads (S11, `describeApiError`), where it happened: a page or
 * drawer that shows its own failure asks silently (`isSilent`), so this is the only message.
 */
export function FailureAlert({ error }: { error: unknown }) {
  return (
    <Alert color="red" role="alert">
      {describeApiError(error)}
    </Alert>
  );
}
