import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RegisterRequest } from '@sf/contract/auth';
import { isApiError } from '../../../lib/api-error.ts';
import { contractResolver, usePreloadValidation, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { register as registerAccount } from '../api/register.ts';
import { FormError } from './form-error.tsx';
import { useFormFailure } from './use-form-failure.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useScreenTitle } from '../../../lib/document-title.ts';

const loadSchema = () => import('@sf/contract/auth').then((m) => m.registerRequestSchema);

/**
 * S6 + B7: register, sign in automatically; a new account has no role yet, so the usual ending is the
 * success text and the "waiting for approval" explanation — never an empty screen.
 */
export function RegistrationForm({ onSignedIn }: { onSignedIn: (role: 'admin' | 'editor') => void }) {
  const { t } = useTranslation('auth');
  useScreenTitle(t('registration.title'));
  const [isAwaitingApproval, setAwaitingApproval] = useState(false);
  const form = useForm<RegisterRequest>({
    mode: 'onChange',
    defaultValues: { firstName: '', lastName: '', email: '', password: '', acceptTerms: false },
    resolver: contractResolver<RegisterRequest>(loadSchema),
  });
  usePreloadValidation(loadSchema);
  useRevalidateOnLanguageChange(form);
  const failure = useFormFailure(form);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    failure.clear();
    try {
      const result = await registerAccount(values);
      if (result.outcome === 'signed-in') onSignedIn(result.role);
      else setAwaitingApproval(true);
    } catch (error) {
      if (isApiError(error) && error.code === 'conflict') {
        form.setError('email', { type: 'server', message: t('conflictEmail') });
        return;
      }
      failure.fromError(error);
    }
  });

  if (isAwaitingApproval) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('registration.title')}</Title>
        <Notice tone="success" title={t('registration.success')}>
          <Text fw={600} size="sm">
            {t('registration.approvalTitle')}
          </Text>
          <Text size="sm">{t('registration.approval')}</Text>
        </Notice>
        <Anchor component={Link} to="/auth/login">
          {t('registration.backToLogin')}
        </Anchor>
      </Stack>
    );
  }

  const isBusy = form.formState.isSubmitting;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="registration-title">
      <Stack gap="md">
        <div>
          <Title order={2} id="registration-title">
            {t('registration.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('registration.subtitle')}
          </Text>
        </div>
        <FormError>{failure.text}</FormError>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label={t('fields.firstName')} autoComplete="given-name" required {...form.register('firstName')} error={errors.firstName?.message} />
          <TextInput label={t('fields.lastName')} autoComplete="family-name" required {...form.register('lastName')} error={errors.lastName?.message} />
        </Group>
        <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.register('email')} error={errors.email?.message} />
        <PasswordField label={t('fields.password')} autoComplete="new-password" required {...form.register('password')} error={errors.password?.message} />
        <Checkbox label={t('fields.acceptTerms')} {...form.register('acceptTerms')} error={errors.acceptTerms?.message} />
        <Button type="submit" loading={isBusy} disabled={isBusy} fullWidth>
          {t('registration.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('registration.haveAccount')}{' '}
          <Anchor component={Link} to="/auth/login">
            {t('registration.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
