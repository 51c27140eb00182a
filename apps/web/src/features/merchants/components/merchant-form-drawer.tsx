import { Button, Drawer, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { PROVINCES } from '@sf/contract/italian';
import { MERCHANT_CATEGORIES, createMerchantSchema, type CreateMerchant, type Merchant, type MerchantStatus } from '@sf/contract/merchants';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useCan } from '../../../components/can.tsx';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { FocusFirstField } from '../../../components/ui/focus-first-field.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { UnsavedChangesScope, useReportUnsavedChanges, useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes.tsx';
import { VersionConflictNotice, useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { hasFieldErrors } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { blanksToNull } from '../../../lib/form-values.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateMerchant } from '../api/create-merchant.ts';
import { getMerchant, useMerchant } from '../api/get-merchant.ts';
import { useUpdateMerchant } from '../api/update-merchant.ts';
import { MerchantStatusBadge } from './merchant-status-badge.tsx';

type Values = {
  legalName: string;
  signName: string;
  vatNumber: string;
  taxCode: string;
  sdiCode: string;
  pec: string;
  category: CreateMerchant['category'];
  address: { street: string; city: string; province: string; postalCode: string };
  phone: string;
  email: string;
  website: string;
};

const OPTIONAL = ['signName', 'taxCode', 'sdiCode', 'pec', 'phone', 'email', 'website'] as const;

const EMPTY: Values = {
  legalName: '',
  signName: '',
  vatNumber: '',
  taxCode: '',
  sdiCode: '',
  pec: '',
  category: 'bar',
  address: { street: '', city: '', province: '', postalCode: '' },
  phone: '',
  email: '',
  website: '',
};

function toValues(merchant: Merchant): Values {
  return {
    legalName: merchant.legalName,
    signName: merchant.signName ?? '',
    vatNumber: merchant.vatNumber,
    taxCode: merchant.taxCode ?? '',
    sdiCode: merchant.sdiCode ?? '',
    pec: merchant.pec ?? '',
    category: merchant.category,
    address: { ...merchant.address },
    phone: merchant.phone ?? '',
    email: merchant.email ?? '',
    website: merchant.website ?? '',
  };
}

/** What the API receives: optional fields left empty are null. */
function toRequest(values: Values): CreateMerchant {
  return blanksToNull(values, OPTIONAL) as unknown as CreateMerchant;
}

// Blank optional fields are null for the contract, exactly as they are sent.
const loadSchema = async () => z.preprocess((value) => toRequest(value as Values), createMerchantSchema);

function MerchantForm({ merchant, onDone }: { merchant: Merchant | null; onDone: (saved: Merchant) => void }) {
  const { t } = useTranslation('merchants');
  const canWrite = useCan('merchants:write');
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values>({
    mode: 'onTouched',
    defaultValues: merchant ? toValues(merchant) : EMPTY,
    // The contract's schema checks P.IVA, Codice Fiscale, SDI/PEC, province and CAP with the API's own texts.
    resolver: contractResolver<Values>(loadSchema),
  });
  useRevalidateOnLanguageChange(form);
  useReportUnsavedChanges(form.formState.isDirty, { name: 'merchant', form });
  const create = useCreateMerchant();
  const update = useUpdateMerchant({ isFormSave: true });
  const conflict = useVersionConflict({ form, record: merchant, load: () => getMerchant(merchant?.id ?? ''), toValues });
  const { errors } = form.formState;

  useEffect(() => {
    if (merchant) form.reset(toValues(merchant));
  }, [merchant?.version]);

  const onSubmit = form.handleSubmit(
    async (values) => {
      setFailure(null);
      try {
        const body = toRequest(values);
        const saved = merchant ? await update.mutateAsync({ id: merchant.id, ...body, version: conflict.version ?? merchant.version }) : await create.mutateAsync(body);
        notifySuccess(t(merchant ? 'form.saved' : 'form.created', { name: saved.legalName }));
        onDone(saved);
      } catch (error) {
        if (conflict.catchConflict(error)) return;
        if (hasFieldErrors(error) && applyServerFieldErrors(form, error.fields)) return;
        setFailure(error);
      }
    },
  );

  const register = (name: Parameters<typeof form.register>[0]) => form.register(name);
  const isBusy = form.formState.isSubmitting;
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <VersionConflictNotice conflict={conflict.notice} />
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {describeApiError(failure)}
          </Text>
        ) : null}
        <Title order={3} size="h5">
          {t('form.company')}
        </Title>
        <TextInput label={t('form.legalName')} required data-autofocus {...register('legalName')} error={errors.legalName?.message} />
        <TextInput label={t('form.signName')} {...register('signName')} error={errors.signName?.message} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('form.vatNumber')} description={t('form.vatHint')} required maxLength={20} {...register('vatNumber')} error={errors.vatNumber?.message} />
          <TextInput label={t('form.taxCode')} description={t('form.taxCodeHint')} maxLength={16} {...register('taxCode')} error={errors.taxCode?.message} />
          <TextInput label={t('form.sdiCode')} description={t('form.sdiHint')} maxLength={7} {...register('sdiCode')} error={errors.sdiCode?.message} />
          <TextInput label={t('form.pec')} type="email" {...register('pec')} error={errors.pec?.message} />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="category"
          render={({ field }) => (
            <Select
              label={t('form.category')}
              required
              data={MERCHANT_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) }))}
              ref={field.ref}
              value={field.value}
              onChange={(value) => field.onChange(value ?? 'other')}
              onBlur={field.onBlur}
              allowDeselect={false}
              error={errors.category?.message}
            />
          )}
        />
        <Title order={3} size="h5">
          {t('form.address')}
        </Title>
        <TextInput label={t('form.street')} required {...register('address.street')} error={errors.address?.street?.message} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label={t('form.city')} required {...register('address.city')} error={errors.address?.city?.message} />
          <Controller
            control={form.control}
            name="address.province"
            render={({ field }) => (
              <Select
                label={t('form.province')}
                required
                searchable
                data={[...PROVINCES]}
                ref={field.ref}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                error={errors.address?.province?.message}
              />
            )}
          />
          <TextInput label={t('form.postalCode')} required inputMode="numeric" maxLength={5} {...register('address.postalCode')} error={errors.address?.postalCode?.message} />
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('form.contacts')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('form.phone')} type="tel" {...register('phone')} error={errors.phone?.message} />
          <TextInput label={t('form.email')} type="email" {...register('email')} error={errors.email?.message} />
        </SimpleGrid>
        <TextInput label={t('form.website')} type="url" placeholder="https://" {...register('website')} error={errors.website?.message} />
        {canWrite ? (
          <Group justify="flex-end">
            <Button type="submit" loading={isBusy} disabled={isBusy}>
              {merchant ? t('form.save') : t('form.create')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

/** Suspend / reactivate / archive, each confirmed first. */
function StatusActions({ merchant }: { merchant: Merchant }) {
  const { t } = useTranslation('merchants');
  const update = useUpdateMerchant();
  const canWrite = useCan('merchants:write');
  if (!canWrite) return null;
  const ask = (status: MerchantStatus) =>
    modals.openConfirmModal({
      title: t(`confirm.${status}.title`),
      children: <Text size="sm">{t(`confirm.${status}.message`, { name: merchant.legalName })}</Text>,
      labels: {
        confirm: t(status === 'suspended' ? 'actions.suspend' : status === 'active' ? 'actions.reactivate' : 'actions.archive'),
        cancel: t('confirm.cancel'),
      },
      confirmProps: { color: status === 'active' ? 'green' : 'red' },
      onConfirm: () => {
        update.mutate(
          { id: merchant.id, status, version: merchant.version },
          { onSuccess: (saved) => notifySuccess(t(`actions.done.${status}`, { name: saved.legalName })) },
        );
      },
    });
  return (
    <Group gap="xs" role="group" aria-label={t('actions.label')}>
      <MerchantStatusBadge status={merchant.status} />
      {merchant.status === 'active' ? (
        <Button size="xs" variant="light" color="orange" onClick={() => ask('suspended')}>
          {t('actions.suspend')}
        </Button>
      ) : null}
      {merchant.status !== 'active' ? (
        <Button size="xs" variant="light" color="green" onClick={() => ask('active')}>
          {t('actions.reactivate')}
        </Button>
      ) : null}
      {merchant.status !== 'archived' ? (
        <Button size="xs" variant="light" color="gray" onClick={() => ask('archived')}>
          {t('actions.archive')}
        </Button>
      ) : null}
    </Group>
  );
}

type Props = { target: string | null; onClose: () => void; onCreated: (id: string) => void };

/**
 * The merchant's form in a drawer addressed by `?merchant=new` or `?merchant=<id>`; Esc, ✕, the overlay
 * and Back ask before throwing unsaved edits away.
 */
export function MerchantFormDrawer({ target, onClose, onCreated }: Props) {
  const { t } = useTranslation('merchants');
  const id = target && target !== 'new' ? target : null;
  const query = useMerchant(id);
  const merchant = query.data ?? null;
  const guard = useUnsavedChangesGuard({ param: 'merchant', close: onClose });
  return (
    <Drawer
      opened={target !== null}
      onClose={() => void guard.requestClose()}
      position="right"
      size="lg"
      // Nothing to edit over a read that failed: the entity alone above the alert that says why.
      title={target === 'new' ? t('form.newTitle') : isBlockingFailure(query) ? t('form.readFailedTitle') : t('form.editTitle')}
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <UnsavedChangesScope guard={guard}>
        {target === 'new' ? (
          <MerchantForm
            key="new"
            merchant={null}
            onDone={(saved) => {
              guard.forgetEdits();
              onCreated(saved.id);
            }}
          />
        ) : null}
        {id && !merchant && query.isPending ? <Loader aria-label={t('form.loading')} /> : null}
        {id && isBlockingFailure(query) ? <FailureAlert error={query.error} missing={{ title: t('form.notFound.title'), text: t('form.notFound.text') }} /> : null}
        {merchant ? (
          <Stack gap="md">
            {/* A failed refetch keeps the form and what was typed in it, under a notice that says so. */}
            <StaleDataNotice query={query} />
            <StatusActions merchant={merchant} />
            <MerchantForm key={merchant.id} merchant={merchant} onDone={() => undefined} />
            <FocusFirstField />
          </Stack>
        ) : null}
      </UnsavedChangesScope>
    </Drawer>
  );
}
