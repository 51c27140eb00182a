import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { useScreenTitle } from '../lib/document-title.ts';

/** A render error or a failed lazy chunk (e.g. after a deploy) ends here, never on a blank page. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  useScreenTitle(t('routeError.title'));
  useEffect(() => {
    console.error('Route error', error);
  }, [error]);
  return (
    <Center component="main" h="100vh" p="md">
      <Stack align="center" maw={420} ta="center">
        <Title order={1}>{t('routeError.title')}</Title>
        <Text>{t('routeError.text')}</Text>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </Stack>
    </Center>
  );
}
