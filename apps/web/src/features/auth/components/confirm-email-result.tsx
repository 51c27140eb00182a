import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Notice } from '../../../components/ui/notice.tsx';
import { confirmEmail } from '../api/confirm-email.ts';
import { useScreenTitle } from '../../../lib/document-title.ts';

type State = 'working' | 'confirmed' | 'failed';

/**
 * `/auth/confirm-email?token=…`, the link of the registration e-mail (B7): confirms the address at
 * once and says what comes next — an administrator's approval.
 */
export function ConfirmEmailResult({ token }: { token: string | null }) {
  const { t } = useTranslation('auth');
  useScreenTitle(t('confirmEmail.title'));
  const [state, setState] = useState<State>(token ? 'working' : 'failed');
  useEffect(() => {
    if (!token) return;
    let isCurrent = true;
    confirmEmail(token).then(
      () => isCurrent && setState('confirmed'),
      () => isCurrent && setState('failed'),
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);

  return (
    <Stack gap="md">
      <Title order={2}>{t('confirmEmail.title')}</Title>
      {state === 'working' && (
        <Stack align="center" gap="xs">
          <Loader size="sm" aria-hidden />
          <Text size="sm">{t('confirmEmail.working')}</Text>
        </Stack>
      )}
      {state === 'confirmed' && (
        <Notice tone="success" title={t('confirmEmail.success')}>
          <Text size="sm">{t('confirmEmail.next')}</Text>
        </Notice>
      )}
      {state === 'failed' && <Notice tone="error">{token ? t('confirmEmail.invalid') : t('confirmEmail.missingToken')}</Notice>}
      <Anchor component={Link} to="/auth/login">
        {t('confirmEmail.backToLogin')}
      </Anchor>
    </Stack>
  );
}
