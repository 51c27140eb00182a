import { Alert, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBrandApple, IconBrandGoogle, IconCheck, IconCopy, IconMail, IconRefresh } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { saveDownload } from '../../../components/ui/export-button.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { downloadApplePass } from '../api/download-apple-pass.ts';
import { useEmailCardLink } from '../api/email-card-link.ts';
import { useCardLink } from '../api/get-card-link.ts';
import { getGoogleWalletLink } from '../api/get-google-wallet-link.ts';
import { useWalletStatus } from '../api/get-wallet-status.ts';
import { useRegenerateCardLink } from '../api/regenerate-card-link.ts';

export type WalletMembership = { id: string; programName: string };

/** A wallet button: disabled, with the server's "not configured" text beside it, when its wallet is not set up. */
function WalletButton({ label, icon, disabledText, isLoading, onClick }: { label: string; icon: ReactNode; disabledText: string | null; isLoading: boolean; onClick: () => void }) {
  const button = (
    <Button variant="default" size="xs" leftSection={icon} onClick={onClick} loading={isLoading} disabled={disabledText !== null}>
      {label}
    </Button>
  );
  return disabledText ? (
    <Tooltip label={disabledText} multiline w={280}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

function MembershipWallet({ membership, holder, canWrite }: { membership: WalletMembership; holder: string; canWrite: boolean }) {
  const { t } = useTranslation('wallet');
  const status = useWalletStatus();
  const link = useCardLink(membership.id, true);
  const regenerate = useRegenerateCardLink(membership.id);
  const email = useEmailCardLink(membership.id);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState<'apple' | 'google' | null>(null);
  const appleText = status.data && !status.data.apple.isConfigured ? status.data.apple.message : null;
  const googleText = status.data && !status.data.google.isConfigured ? status.data.google.message : null;

  const run = async (which: 'apple' | 'google') => {
    setFailure(null);
    setBusy(which);
    try {
      if (which === 'apple') saveDownload(await downloadApplePass(membership.id));
      else window.open((await getGoogleWalletLink(membership.id)).saveUrl, '_blank', 'noopener');
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  const askRegenerate = () =>
    modals.openConfirmModal({
      title: t('regenerate.title'),
      children: <Text size="sm">{t('regenerate.message', { name: holder, program: membership.programName })}</Text>,
      labels: { confirm: t('regenerate.confirm'), cancel: t('regenerate.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => regenerate.mutate(undefined, { onSuccess: () => notifySuccess(t('regenerate.done')) }),
    });

  const send = () => {
    setFailure(null);
    email.mutate(undefined, { onSuccess: ({ sentTo }) => notifySuccess(t('email.sent', { address: sentTo })), onError: setFailure });
  };

  const error = failure ?? link.error ?? regenerate.error;
  const emailRefusal = link.data?.emailRefusal ?? null;
  const refusalId = useId();
  return (
    <Stack gap={6} component="section" aria-label={t('membership', { program: membership.programName })}>
      <Text fw={600} size="sm">
        {membership.programName}
      </Text>
      <TextInput
        aria-label={t('link.label', { program: membership.programName })}
        value={link.data?.url ?? ''}
        placeholder={link.isPending ? t('link.loading') : ''}
        readOnly
        size="xs"
        data-testid="card-link"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Group gap="xs">
        <CopyButton value={link.data?.url ?? ''}>
          {({ copied, copy }) => (
            <Button variant="light" size="xs" leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />} onClick={copy} disabled={!link.data}>
              {copied ? t('link.copied') : t('link.copy')}
            </Button>
          )}
        </CopyButton>
        {canWrite ? (
          <>
            <Button variant="subtle" size="xs" color="red" leftSection={<IconRefresh size={14} aria-hidden />} onClick={askRegenerate} loading={regenerate.isPending} disabled={!link.data}>
              {t('regenerate.button')}
            </Button>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconMail size={14} aria-hidden />}
              onClick={send}
              loading={email.isPending}
              disabled={!link.data || emailRefusal !== null}
              aria-describedby={emailRefusal ? refusalId : undefined}
            >
              {t('email.button')}
            </Button>
          </>
        ) : null}
      </Group>
      {/* Why the card cannot be e-mailed (no address, no service consent), before anyone clicks. */}
      {canWrite && emailRefusal ? (
        <Text size="xs" c="dimmed" id={refusalId}>
          {emailRefusal}
        </Text>
      ) : null}
      <Group gap="xs">
        <WalletButton label={t('apple')} icon={<IconBrandApple size={14} aria-hidden />} disabledText={appleText} isLoading={busy === 'apple'} onClick={() => void run('apple')} />
        <WalletButton label={t('google')} icon={<IconBrandGoogle size={14} aria-hidden />} disabledText={googleText} isLoading={busy === 'google'} onClick={() => void run('google')} />
      </Group>
      {appleText && googleText ? (
        <Text size="xs" c="dimmed">
          {t('notConfigured')}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" role="alert" p="xs">
          {describeApiError(error)}
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * "Tessera nel telefono", under the customer's card: per membership, the card page link (copy,
 * regenerate, send by e-mail) and the Apple Wallet and Google Wallet passes. Composed by the route.
 */
export function WalletPanel({ memberships, holder, isActive, canWrite }: { memberships: WalletMembership[]; holder: string; isActive: boolean; canWrite: boolean }) {
  const { t } = useTranslation('wallet');
  return (
    <Paper withBorder p="md" radius="md" mt="md">
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('title')}
        </Title>
        {!isActive ? (
          <Text size="sm" c="dimmed">
            {t('inactive')}
          </Text>
        ) : memberships.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('noMemberships')}
          </Text>
        ) : (
          memberships.map((membership) => <MembershipWallet key={membership.id} membership={membership} holder={holder} canWrite={canWrite} />)
        )}
      </Stack>
    </Paper>
  );
}
