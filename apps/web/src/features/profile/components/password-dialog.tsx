import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BOUNDS, passwordSchema } from '@sf/contract/validation';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { i18n } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useChangePassword } from '../api/change-password.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';

type PasswordValues = { currentPassword: string; newPassword: string; confirmNewPassword: string };

// The contract's request schema is strict; the form also carries the confirmation, checked here
// (named as its label, "Conferma la nuova password", and required like the others).
const passwordFormSchema = z.object({
  currentPassword: z.string().min(1).max(BOUNDS.passwordMax),
  newPassword: passwordSchema,
  confirmNewPassword: z.string().min(1),
});

function PasswordForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('profile');
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<PasswordValues>({
    mode: 'onChange',
    defaultValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' },
    resolver: contractResolver<PasswordValues>(async () => passwordFormSchema, (values) =>
      values.confirmNewPassword !== values.newPassword ? { field: 'confirmNewPassword', message: i18n.t('profile:password.mismatch') } : null,
    ),
  });
  useRevalidateOnLanguageChange(form);
  const change = useChangePassword();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setFailure(null);
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      notifySuccess(t('password.saved'));
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'validation' && applyServerFieldErrors(form, error.fields)) return;
      setFailure(error);
    }
  });

  const isBusy = change.isPending || form.formState.isSubmitting;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('password.intro')}</Text>
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {describeApiError(failure)}
          </Text>
        ) : null}
        <PasswordField label={t('fields.currentPassword')} autoComplete="current-password" required data-autofocus {...form.register('currentPassword')} error={errors.currentPassword?.message} />
        <PasswordField label={t('fields.newPassword')} autoComplete="new-password" required {...form.register('newPassword')} error={errors.newPassword?.message} />
        <PasswordField label={t('fields.confirmPassword')} autoComplete="new-password" required {...form.register('confirmNewPassword')} error={errors.confirmNewPassword?.message} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={isBusy} disabled={isBusy}>
            {t('password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function PasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile');
  return (
    <Modal opened={isOpen} onClose={onClose} title={t('password.title')} closeButtonProps={{ 'aria-label': t('common:close') }}>
      {isOpen ? <PasswordForm onClose={onClose} /> : null}
    </Modal>
  );
}
