import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Props = { title: string; text: string; back: ReactNode; backHref: string };

/**
 * A record's page when there is no such record (an old link, a mistyped address): what happened and
 * the way back to its list, instead of the API's "not found" or "Id non è valido" over an empty page.
 */
export function RecordNotFound({ title, text, back, backHref }: Props) {
  return (
    <Stack gap="md" align="flex-start">
      <Anchor component={Link} to={backHref} size="sm">
        {back}
      </Anchor>
      <Title order={1}>{title}</Title>
      <Text>{text}</Text>
    </Stack>
  );
}
