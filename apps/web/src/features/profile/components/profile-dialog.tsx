import { Alert, Button, Checkbox, Group, Loader, Modal, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@sf/contract/app-info';
import type { StaffUser } from '@sf/contract/auth';
import { formatPhoneForInput } from '@sf/contract/italian';
import { updateProfileRequestSchema } from '@sf/contract/profile';
import { StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { browserTimeZone } from '../../../lib/format.ts';
import { changeLanguage, isLanguage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useProfile } from '../api/get-profile.ts';
import { useUpdateProfile, type UpdateProfileRequest } from '../api/update-profile.ts';

type ProfileValues = Required<
  Pick<
    UpdateProfileRequest,
    'firstName' | 'lastName' | 'fullname' | 'occupation' | 'companyName' | 'phone' | 'website' | 'language' | 'timeZone' | 'communication' | 'address' | 'socialNetworks'
  >
>;

const CHANNELS = ['email', 'sms', 'phone'] as const;
const CHANNEL_LABELS = { email: 'fields.communicationEmail', sms: 'fields.communicationSms', phone: 'fields.communicationPhone' } as const;
const ADDRESS_FIELDS = [
  ['addressLine', 'street-address'],
  ['city', 'address-level2'],
  ['state', 'address-level1'],
  ['postCode', 'postal-code'],
] as const;
const SOCIAL_NETWORKS = ['linkedIn', 'facebook', 'twitter', 'instagram'] as const;

function toValues(user: StaffUser): ProfileValues {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    fullname: user.fullname,
    occupation: user.occupation,
    companyName: user.companyName,
    // Stored as E.164 (decision 012), shown as people write it.
    phone: formatPhoneForInput(user.phone),
    website: user.website,
    language: user.language,
    timeZone: user.timeZone || browserTimeZone(),
    communication: { ...user.communication },
    address: { ...user.address },
    socialNetworks: { ...user.socialNetworks },
  };
}

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['Europe/Rome', 'UTC'];
  }
}

function ProfileForm({ user, onClose }: { user: StaffUser; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const form = useForm<ProfileValues>({
    mode: 'onChange',
    defaultValues: toValues(user),
    resolver: contractResolver<ProfileValues>(async () => updateProfileRequestSchema),
  });
  useRevalidateOnLanguageChange(form);
  const update = useUpdateProfile();
  const zones = useMemo(() => {
    const all = timeZones();
    const current = form.getValues('timeZone');
    return current && !all.includes(current) ? [current, ...all] : all;
  }, [form]);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      if (isLanguage(saved.language)) await changeLanguage(saved.language);
      notifySuccess(t('profile.saved'));
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'validation') applyServerFieldErrors(form, error.fields);
    }
  });

  const isBusy = update.isPending || form.formState.isSubmitting;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput label={t('fields.email')} value={user.email} readOnly disabled />
        <Title order={3} size="h5">
          {t('profile.account')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('fields.firstName')} autoComplete="given-name" required data-autofocus {...form.register('firstName')} error={errors.firstName?.message} />
          <TextInput label={t('fields.lastName')} autoComplete="family-name" required {...form.register('lastName')} error={errors.lastName?.message} />
          <TextInput label={t('fields.fullname')} autoComplete="name" {...form.register('fullname')} error={errors.fullname?.message} />
          <TextInput label={t('fields.occupation')} autoComplete="organization-title" {...form.register('occupation')} error={errors.occupation?.message} />
          <TextInput label={t('fields.companyName')} autoComplete="organization" {...form.register('companyName')} error={errors.companyName?.message} />
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('profile.contact')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('fields.phone')} type="tel" autoComplete="tel" {...form.register('phone')} error={errors.phone?.message} />
          <TextInput label={t('fields.website')} type="url" autoComplete="url" {...form.register('website')} error={errors.website?.message} />
        </SimpleGrid>
        {/* One value for the group, the three booleans the API keeps: the group alone decides what is ticked. */}
        <Controller
          control={form.control}
          name="communication"
          render={({ field }) => (
            <Checkbox.Group
              label={t('fields.communication')}
              value={CHANNELS.filter((channel) => field.value[channel])}
              onChange={(chosen) => field.onChange(Object.fromEntries(CHANNELS.map((channel) => [channel, chosen.includes(channel)])))}
            >
              <Group mt="xs">
                {CHANNELS.map((channel) => (
                  <Checkbox key={channel} value={channel} label={t(CHANNEL_LABELS[channel])} onBlur={field.onBlur} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
        />
        <Title order={3} size="h5">
          {t('profile.address')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {ADDRESS_FIELDS.map(([name, autoComplete]) => (
            <TextInput key={name} label={t(`fields.${name}`)} autoComplete={autoComplete} {...form.register(`address.${name}`)} error={errors.address?.[name]?.message} />
          ))}
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('profile.socialNetworks')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {SOCIAL_NETWORKS.map((name) => (
            <TextInput
              key={name}
              label={t(`fields.${name}`)}
              type="url"
              placeholder="https://"
              {...form.register(`socialNetworks.${name}`)}
              error={errors.socialNetworks?.[name]?.message}
            />
          ))}
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('profile.preferences')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="language"
            render={({ field }) => (
              <Select
                label={t('fields.language')}
                data={LANGUAGES.map((language) => ({ value: language, label: t(`common:language.${language}`) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? field.value)}
                onBlur={field.onBlur}
                allowDeselect={false}
                error={errors.language?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <Select
                label={t('fields.timeZone')}
                data={zones}
                searchable
                value={field.value}
                onChange={(value) => field.onChange(value ?? field.value)}
                onBlur={field.onBlur}
                allowDeselect={false}
                error={errors.timeZone?.message}
              />
            )}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={isBusy} disabled={isBusy}>
            {t('common:save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Own profile in a dialog (docs/product.md C: an editor has no profile page, only this). */
export function ProfileDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const profile = useProfile({ isEnabled: isOpen });
  // On a phone the form takes the whole screen: five sections in a floating box leave no room to type.
  const isPhone = useMediaQuery('(max-width: 48em)') ?? false;
  return (
    <Modal
      opened={isOpen}
      onClose={onClose}
      title={t('profile.title')}
      size="lg"
      fullScreen={isPhone}
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      {profile.data ? (
        // A failed refetch (the dialog opened again later) keeps the form and what was typed in it.
        <Stack gap="md">
          <StaleDataNotice query={profile} />
          <ProfileForm key={profile.dataUpdatedAt} user={profile.data} onClose={onClose} />
        </Stack>
      ) : profile.isError ? (
        <Alert color="red" role="alert" title={t('profile.loadFailed')}>
          {describeApiError(profile.error)}
        </Alert>
      ) : (
        <Group justify="center" p="lg">
          <Loader aria-label={t('common:loading')} />
        </Group>
      )}
    </Modal>
  );
}
