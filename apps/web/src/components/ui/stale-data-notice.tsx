import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/api-client.ts';
import { isMissingRecord } from '../../lib/api-error.ts';

/** What these helpers read of a TanStack query: its answer, its failure and a way to ask again. */
type ReadQuery = { data: unknown; error: unknown; isError: boolean; isFetching: boolean; refetch: () => unknown };

/**
 * The read failed and there is nothing to show: only then does the failure take the place of the record
 * (`FailureAlert`, `RecordNotFound`). TanStack Query keeps the last good answer in `data` when a refetch
 * fails (a save invalidating the record, a poll, a network blip) and still says `isError`: replacing the
 * screen then unmounted the form and threw away what the operator was typing.
 */
export function isBlockingFailure(query: { data: unknown; isError: boolean }): boolean {
  return query.isError && query.data === undefined;
}

/**
 * Above a record that is still shown after its refetch failed: says so without taking anything away,
 * in `describeApiError`'s words, with a way to try again; a record deleted meanwhile (404) says that it
 * no longer exists, since trying again would not bring it back. Renders nothing otherwise, so a screen
 * places it once above its content (always rendered, so the content after it keeps its place and state).
 * A list says the same with the HTTP client's toast and keeps its rows (`DataTable`); a screen that
 * shows this reads silently (`isSilent`), so the notice is the only message.
 */
export function StaleDataNotice({ query }: { query: ReadQuery }) {
  const { t } = useTranslation('records');
  if (!query.isError || query.data === undefined) return null;
  const isGone = isMissingRecord(query.error);
  // `status`, not `alert`: what is on screen is still usable, nothing needs to be done at once.
  return (
    <Alert color="yellow" role="status" title={t(isGone ? 'gone.title' : 'stale.title')}>
      <Stack gap="xs" align="flex-start">
        {isGone ? null : <Text size="sm">{describeApiError(query.error)}</Text>}
        <Text size="sm">{t(isGone ? 'gone.text' : 'stale.text')}</Text>
        {isGone ? null : (
          <Button size="xs" variant="light" color="yellow" onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
