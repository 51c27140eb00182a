import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while the stored session is checked (S4), so neither the login page nor the app flashes. */
export function Splash() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden />
        <Text c="dimmed">{t('splash')}</Text>
      </Stack>
    </Center>
  );
}
