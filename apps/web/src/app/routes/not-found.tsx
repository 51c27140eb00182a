import '../full-styles.ts';
import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useScreenTitle } from '../../lib/document-title.ts';

/** `/error/404` (S8). */
export function Component() {
  const { t } = useTranslation();
  useScreenTitle(t('notFound.title'));
  return (
    <Center component="main" id="main-content" mih="100vh" p="md">
      <Stack align="center" ta="center" maw={480}>
        <Text fz={64} fw={700} c="dimmed" aria-hidden>
          404
        </Text>
        <Title order={1}>{t('notFound.title')}</Title>
        <Text>{t('notFound.text')}</Text>
        <Anchor component={Link} to="/">
          {t('notFound.home')}
        </Anchor>
      </Stack>
    </Center>
  );
}
