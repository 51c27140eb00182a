import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { contractResolver, usePreloadValidation, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { i18n } from '../../../lib/i18n.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { resetPassword } from '../api/reset-password.ts';
import { FormError } from './form-error.tsx';
import { useFormFailure } from './use-form-failure.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useScreenTitle } from '../../../lib/document-title.ts';

type ResetValues = { newPassword: string; confirmNewPassword: string };

const loadSchema = () => import('../lib/reset-password-schema.ts').then((m) => m.resetPasswordFormSchema);

export function ResetPasswordForm({ token, onDone }: { token: string | null; onDone: () => void }) {
  const { t } = useTranslation('auth');
  useScreenTitle(t('reset.title'));
  const form = useForm<ResetValues>({
    mode: 'onChange',
    defaultValues: { newPassword: '', confirmNewPassword: '' },
    resolver: contractResolver<ResetValues>(loadSchema, (values) =>
      values.confirmNewPassword !== values.newPassword ? { field: 'confirmNewPassword', message: i18n.t('auth:reset.mismatch') } : null,
    ),
  });
  usePreloadValidation(loadSchema);
  useRevalidateOnLanguageChange(form);
  const failure = useFormFailure(form);
  const { errors } = form.formState;

  if (!token) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('reset.title')}</Title>
        <Notice tone="error">{t('reset.missingToken')}</Notice>
        <Anchor component={Link} to="/auth/forgot-password">
          {t('reset.requestNew')}
        </Anchor>
      </Stack>
    );
  }

  const onSubmit = form.handleSubmit(async (values) => {
    failure.clear();
    try {
      await resetPassword({ token, password: values.newPassword });
      onDone();
    } catch (error) {
      // The API's field is the request's `password`; its text already names it "Nuova password".
      const onPassword = isApiError(error) && error.code === 'validation' ? error.fields?.find((field) => field.field === 'password') : undefined;
      if (onPassword) form.setError('newPassword', { type: 'server', message: onPassword.message });
      else failure.fromError(error);
    }
  });

  const isBusy = form.formState.isSubmitting;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
      <Stack gap="md">
        <div>
          <Title order={2} id="reset-title">
            {t('reset.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('reset.subtitle')}
          </Text>
        </div>
        <FormError>{failure.text}</FormError>
        <PasswordField label={t('fields.newPassword')} autoComplete="new-password" required {...form.register('newPassword')} error={errors.newPassword?.message} />
        <PasswordField
          label={t('fields.confirmPassword')}
          autoComplete="new-password"
          required
          {...form.register('confirmNewPassword')}
          error={errors.confirmNewPassword?.message}
        />
        <Button type="submit" loading={isBusy} disabled={isBusy} fullWidth>
          {t('reset.submit')}
        </Button>
        <Anchor component={Link} to="/auth/forgot-password" size="sm" ta="center">
          {t('reset.requestNew')}
        </Anchor>
      </Stack>
    </form>
  );
}
