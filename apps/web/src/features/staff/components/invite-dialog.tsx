import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { STAFF_ROLES } from '@sf/contract/roles';
import { createInvitationRequestSchema, type CreateInvitationRequest } from '@sf/contract/staff-invitations';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateInvitation } from '../api/invitations.ts';

// The Staff screen's chunk has the contract already: no second request for the schema.
const loadSchema = async () => createInvitationRequestSchema;

const EMPTY: CreateInvitationRequest = { displayName: '', email: '', role: 'editor' };

/** Name, e-mail and role → the invitation e-mail (the API answers 409 account_exists for a known address). */
export function InviteDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('staff');
  return (
    <Modal opened={isOpen} onClose={onClose} title={t('invitations.form.title')} closeButtonProps={{ 'aria-label': t('dialog.close') }}>
      {isOpen ? <InviteForm onClose={onClose} /> : null}
    </Modal>
  );
}

function InviteForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('staff');
  const create = useCreateInvitation();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<CreateInvitationRequest>({ mode: 'onTouched', defaultValues: EMPTY, resolver: contractResolver<CreateInvitationRequest>(loadSchema) });
  useRevalidateOnLanguageChange(form);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const invitation = await create.mutateAsync(values);
      notifySuccess(t('invitations.form.sent', { email: invitation.email }));
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'validation' && applyServerFieldErrors(form, error.fields)) return;
      if (isApiError(error) && error.code === 'account_exists') {
        form.setError('email', { type: 'server', message: error.message });
        return;
      }
      setFailure(error);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('invitations.form.intro')}</Text>
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {describeApiError(failure)}
          </Text>
        ) : null}
        <TextInput label={t('invitations.form.name')} required autoComplete="off" data-autofocus {...form.register('displayName')} error={errors.displayName?.message} />
        <TextInput label={t('invitations.form.email')} type="email" required autoComplete="off" {...form.register('email')} error={errors.email?.message} />
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <Select
              label={t('invitations.form.role')}
              required
              data={STAFF_ROLES.map((value) => ({ value, label: t(`role.${value}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(value ?? 'editor')}
              allowDeselect={false}
              error={errors.role?.message}
            />
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('dialog.cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('invitations.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
