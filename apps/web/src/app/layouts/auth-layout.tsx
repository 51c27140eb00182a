import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { APP_VERSION } from '@sf/contract/app-info';
import { LanguageSwitch } from '../../components/ui/language-switch.tsx';
import { useTexts } from '../../lib/texts.ts';

/** The /auth area (S8): one centred card, with the version (S15) and the language switch in the footer. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTexts();
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }} bg="var(--mantine-color-body)">
      <Center component="main" id="main-content" flex={1} p="md">
        <Stack w="100%" maw={440} gap="lg">
          <Stack gap={0} align="center">
            <Title order={1} fz="h2">
              {t('appName')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('auth:brandTagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
            {children}
          </Paper>
        </Stack>
      </Center>
      <Group component="footer" justify="space-between" px="md" py="sm" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {t('auth:footer', { version: APP_VERSION })}
        </Text>
        <LanguageSwitch />
      </Group>
    </Box>
  );
}
