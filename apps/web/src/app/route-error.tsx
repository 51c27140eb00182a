import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator, useRouteError } from 'react-router';
import { useScreenTitle } from '../lib/document-title.ts';

/**
 * A render error or a failed lazy chunk (e.g. after a deploy, or while the server is down) ends here,
 * never on a blank page. Inside the signed-in layout (`isInShell`) the menu stays and the screen is
 * asked for again in place: a reload while the server is still down would show the browser's own error
 * page instead of the app.
 */
export function RouteError({ isInShell = false }: { isInShell?: boolean }) {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const { t } = useTranslation();
  useScreenTitle(t('routeError.title'));
  useEffect(() => {
    console.error('Route error', error);
  }, [error]);
  return (
    <Center component={isInShell ? 'div' : 'main'} h={isInShell ? undefined : '100vh'} p="md">
      <Stack align="center" maw={420} ta="center">
        <Title order={1}>{t('routeError.title')}</Title>
        <Text>{isInShell ? t('routeError.retryText') : t('routeError.text')}</Text>
        {isInShell ? (
          <Button loading={revalidator.state === 'loading'} onClick={() => void revalidator.revalidate()}>
            {t('routeError.retry')}
          </Button>
        ) : (
          <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
        )}
      </Stack>
    </Center>
  );
}
