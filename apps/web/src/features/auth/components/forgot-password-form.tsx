import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ForgotPasswordRequest } from '@sf/contract/auth';
import { contractResolver, usePreloadValidation, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';
import { FormError } from './form-error.tsx';
import { useFormFailure } from './use-form-failure.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { useScreenTitle } from '../../../lib/document-title.ts';

const loadSchema = () => import('@sf/contract/auth').then((m) => m.forgotPasswordRequestSchema);

/** S7: ask for a reset link; success text as the specification words it, errors shown (not swallowed). */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  useScreenTitle(t('forgot.title'));
  const [isSent, setSent] = useState(false);
  const form = useForm<ForgotPasswordRequest>({
    mode: 'onChange',
    defaultValues: { email: '' },
    resolver: contractResolver<ForgotPasswordRequest>(loadSchema),
  });
  usePreloadValidation(loadSchema);
  useRevalidateOnLanguageChange(form);
  const failure = useFormFailure(form);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    failure.clear();
    try {
      await requestPasswordReset(values);
      setSent(true);
    } catch (error) {
      failure.fromError(error);
    }
  });

  if (isSent) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('forgot.title')}</Title>
        <Notice tone="success" title={t('forgot.success')}>
          {t('forgot.successDetail')}
        </Notice>
        <Anchor component={Link} to="/auth/login">
          {t('forgot.backToLogin')}
        </Anchor>
      </Stack>
    );
  }

  const isBusy = form.formState.isSubmitting;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
      <Stack gap="md">
        <div>
          <Title order={2} id="forgot-title">
            {t('forgot.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('forgot.subtitle')}
          </Text>
        </div>
        <FormError>{failure.text}</FormError>
        <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.register('email')} error={errors.email?.message} />
        <Button type="submit" loading={isBusy} disabled={isBusy} fullWidth>
          {t('forgot.submit')}
        </Button>
        <Anchor component={Link} to="/auth/login" size="sm" ta="center">
          {t('forgot.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
