import { Anchor, Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { contractResolver, usePreloadValidation, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { i18n } from '../../../lib/i18n.ts';
import type { InvitationDetails } from '@sf/contract/staff-invitations';
import { acceptInvitation, getInvitationDetails } from '../api/invitation.ts';
import { FormError } from './form-error.tsx';
import { useFormFailure } from './use-form-failure.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useScreenTitle } from '../../../lib/document-title.ts';

type InvitationValues = { firstName: string; lastName: string; password: string; confirmPassword: string };

const loadSchema = () => import('../lib/invitation-schema.ts').then((m) => m.invitationFormSchema);

/** A link that cannot be used (unknown, used, revoked, expired): one page for all, saying what to do. */
function InvalidInvitation() {
  const { t } = useTranslation('invitation');
  return (
    <Stack gap="md">
      <Title order={2}>{t('invalidTitle')}</Title>
      <Notice tone="error">{t('invalid')}</Notice>
      <Anchor component={Link} to="/auth/login">
        {t('toLogin')}
      </Anchor>
    </Stack>
  );
}

/** `/auth/invitation?token=…`: the invitee chooses name and password and is signed in with the invited role. */
export function InvitationForm({ token, onSignedIn }: { token: string | null; onSignedIn: (role: 'admin' | 'editor') => void }) {
  const { t } = useTranslation('invitation');
  useScreenTitle(t('title'));
  // The auth area has no data cache: one look-up per token, its outcome kept here.
  const [details, setDetails] = useState<{ token: string; data?: InvitationDetails; error?: unknown } | null>(null);
  useEffect(() => {
    if (!token) return;
    let isCurrent = true;
    getInvitationDetails(token).then(
      (data) => isCurrent && setDetails({ token, data }),
      (error: unknown) => isCurrent && setDetails({ token, error }),
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);

  const current = details?.token === token ? details : null;
  if (!token || (isApiError(current?.error) && current.error.code === 'invalid_invitation_token')) return <InvalidInvitation />;
  if (current?.error) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('title')}</Title>
        <Notice tone="error">{i18n.t('common:errors.internal')}</Notice>
      </Stack>
    );
  }
  if (!current?.data) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t('loading')}</Text>
      </Group>
    );
  }
  const invitation = current.data;
  const [firstName = '', ...rest] = invitation.displayName.split(/\s+/);
  return (
    <AcceptForm
      token={token}
      email={invitation.email}
      role={invitation.role}
      defaults={{ firstName, lastName: rest.join(' ') }}
      onSignedIn={onSignedIn}
    />
  );
}

function AcceptForm({
  token,
  email,
  role,
  defaults,
  onSignedIn,
}: {
  token: string;
  email: string;
  role: 'admin' | 'editor';
  defaults: { firstName: string; lastName: string };
  onSignedIn: (role: 'admin' | 'editor') => void;
}) {
  const { t } = useTranslation('invitation');
  const form = useForm<InvitationValues>({
    mode: 'onTouched',
    defaultValues: { ...defaults, password: '', confirmPassword: '' },
    resolver: contractResolver<InvitationValues>(loadSchema, (values) =>
      values.confirmPassword !== values.password ? { field: 'confirmPassword', message: i18n.t('invitation:mismatch') } : null,
    ),
  });
  usePreloadValidation(loadSchema);
  useRevalidateOnLanguageChange(form);
  const failure = useFormFailure(form);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    failure.clear();
    try {
      onSignedIn(await acceptInvitation({ token, firstName: values.firstName, lastName: values.lastName, password: values.password }));
    } catch (error) {
      failure.fromError(error);
    }
  });

  const isBusy = form.formState.isSubmitting;
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="invitation-title">
      <Stack gap="md">
        <div>
          <Title order={2} id="invitation-title">
            {t('title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('subtitle', { email, role: t(`role.${role}`) })}
          </Text>
        </div>
        <FormError>{failure.text}</FormError>
        <TextInput label={t('firstName')} autoComplete="given-name" required {...form.register('firstName')} error={errors.firstName?.message} />
        <TextInput label={t('lastName')} autoComplete="family-name" required {...form.register('lastName')} error={errors.lastName?.message} />
        <PasswordField label={t('password')} autoComplete="new-password" required {...form.register('password')} error={errors.password?.message} />
        <PasswordField label={t('confirmPassword')} autoComplete="new-password" required {...form.register('confirmPassword')} error={errors.confirmPassword?.message} />
        <Button type="submit" loading={isBusy} disabled={isBusy} fullWidth>
          {t('submit')}
        </Button>
      </Stack>
    </form>
  );
}
