import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LoginRequest } from '@sf/contract/auth';
import { isApiError } from '../../../lib/api-error.ts';
import { useSchemaForm } from '../../../lib/schema-form.ts';
import { useTexts } from '../../../lib/texts.ts';
import { InAppLink } from '../../../components/ui/in-app-link.tsx';
import { signIn } from '../api/sign-in.ts';
import { FormError } from './form-error.tsx';
import { useFormFailure } from './use-form-failure.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { useScreenTitle } from '../../../lib/document-title.ts';

const loadSchema = () => import('@sf/contract/auth').then((m) => m.loginRequestSchema);

export function LoginForm({
  onSignedIn,
  onSubmitStart,
  onFirstFocus,
  notice,
}: {
  onSignedIn: (role: 'admin' | 'editor') => void;
  /** Called as a submit begins (the page fetches what comes after signing in meanwhile). */
  onSubmitStart?: () => void;
  /** Called whenever a field gets focus (the page fetches, once, what comes after signing in). */
  onFirstFocus?: () => void;
  notice?: ReactNode;
}) {
  const { t } = useTexts('auth');
  useScreenTitle(t('login.title'));
  // Not react-hook-form: the sign-in page's first load must stay within budget (decision 007).
  const form = useSchemaForm<LoginRequest>({ initialValues: { email: '', password: '' }, loadSchema });
  const failure = useFormFailure(form);

  const onSubmit = form.handleSubmit(async (values) => {
    onSubmitStart?.();
    failure.clear();
    try {
      const result = await signIn(values);
      if (result.outcome === 'refused') {
        console.warn('Sign-in refused: this account may not enter the back-office', { role: result.role });
        failure.loginIncorrect();
        return;
      }
      onSignedIn(result.role);
    } catch (error) {
      if (isApiError(error) && (error.code === 'invalid_credentials' || error.status === 401)) {
        console.warn('Sign-in failed', error);
        failure.loginIncorrect();
      } else {
        failure.fromError(error);
      }
    }
  });

  const isBusy = form.isSubmitting;
  return (
    <form onSubmit={onSubmit} onFocus={onFirstFocus} noValidate aria-labelledby="login-title">
      <Stack gap="md">
        <div>
          <Title order={2} id="login-title">
            {t('login.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('login.subtitle')}
          </Text>
        </div>
        {notice}
        <FormError>{failure.text}</FormError>
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          required
          {...form.getInputProps('email')}
        />
        <PasswordField
          label={t('fields.password')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <InAppLink to="/auth/forgot-password" size="sm">
            {t('login.forgot')}
          </InAppLink>
        </Group>
        <Button type="submit" loading={isBusy} disabled={isBusy} fullWidth>
          {t('login.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('login.noAccount')}{' '}
          <InAppLink to="/auth/registration">
            {t('login.register')}
          </InAppLink>
        </Text>
      </Stack>
    </form>
  );
}
