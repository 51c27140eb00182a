import { Button, Checkbox, Drawer, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatPhoneForInput, PROVINCES } from '@sf/contract/italian';
import { LANGUAGES, type Language } from '@sf/contract/app-info';
import { createCustomerSchema, updateCustomerSchema, type CreateCustomer, type Customer, type UpdateCustomer } from '@sf/contract/customers';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { UnsavedChangesScope, useReportUnsavedChanges, useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes.tsx';
import { VersionConflictNotice, useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { hasFieldErrors } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { blanksToNull } from '../../../lib/form-values.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateCustomer } from '../api/create-customer.ts';
import { getCustomer } from '../api/get-customer.ts';
import { useEnrollingPrograms } from '../api/get-enrolling-programs.ts';
import { useUpdateCustomer } from '../api/update-customer.ts';
import { CURRENT_NOTICE_VERSION } from '../lib/privacy.ts';
import { DateField } from '../../../components/ui/date-fields.tsx';

type Values = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  birthDate: string;
  city: string;
  province: string;
  language: Language;
  referrerCode: string;
  programId: string;
  marketing: boolean;
  profiling: boolean;
  noticeVersion: string;
};

const OPTIONAL = ['email', 'phone', 'birthDate', 'city', 'province'] as const;

function toValues(customer: Customer | null): Values {
  return {
    firstName: customer?.firstName ?? '',
    lastName: customer?.lastName ?? '',
    email: customer?.email ?? '',
    // Written for people, as the profile does ("+39 333 123 4567"); saved back as E.164.
    phone: customer?.phone ? formatPhoneForInput(customer.phone) : '',
    birthDate: customer?.birthDate ?? '',
    city: customer?.city ?? '',
    province: customer?.province ?? '',
    language: customer?.language ?? 'it',
    referrerCode: '',
    programId: '',
    marketing: false,
    profiling: false,
    noticeVersion: CURRENT_NOTICE_VERSION,
  };
}

/** The create request: the card needs the service consent; marketing and profiling only when given. */
function toCreate(values: Values): CreateCustomer {
  const personal = blanksToNull(
    { firstName: values.firstName, lastName: values.lastName, email: values.email, phone: values.phone, birthDate: values.birthDate, city: values.city, province: values.province },
    OPTIONAL,
  );
  const consent = { granted: true, channel: 'back-office' as const, noticeVersion: values.noticeVersion.trim() };
  return {
    ...personal,
    language: values.language,
    consents: { service: consent, ...(values.marketing ? { marketing: consent } : {}), ...(values.profiling ? { profiling: consent } : {}) },
    ...(values.referrerCode.trim() ? { referrerCode: values.referrerCode.trim() } : {}),
    ...(values.programId ? { programId: values.programId } : {}),
  } as CreateCustomer;
}

function toUpdate(values: Values): Omit<UpdateCustomer, 'version'> {
  return {
    ...blanksToNull(
      { firstName: values.firstName, lastName: values.lastName, email: values.email, phone: values.phone, birthDate: values.birthDate, city: values.city, province: values.province },
      OPTIONAL,
    ),
    language: values.language,
  } as Omit<UpdateCustomer, 'version'>;
}

/**
 * The form's values are checked by the contract's request schema as they will be sent, and the
 * problems come back on the form's own field names (`consents.service.noticeVersion` → noticeVersion).
 */
const createSchemaLoader = async () => z.preprocess((value) => toCreate(value as Values), createCustomerSchema);
const updateSchemaLoader = async () => z.preprocess((value) => ({ ...toUpdate(value as Values), version: 1 }), updateCustomerSchema);

function CustomerForm({ customer, onSaved }: { customer: Customer | null; onSaved: (customer: Customer) => void }) {
  const { t } = useTranslation('customers');
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values>({
    mode: 'onTouched',
    defaultValues: toValues(customer),
    resolver: contractResolver<Values>(customer ? updateSchemaLoader : createSchemaLoader),
  });
  useRevalidateOnLanguageChange(form);
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const { errors } = form.formState;
  useReportUnsavedChanges(form.formState.isDirty, { name: 'customer', form });
  const conflict = useVersionConflict({ form, record: customer, load: () => getCustomer(customer?.id ?? ''), toValues });
  const programs = useEnrollingPrograms(!customer);
  // One active program: the new customer joins it unless the operator says otherwise.
  useEffect(() => {
    if (!customer && programs?.length === 1 && !form.getValues('programId')) form.setValue('programId', programs[0]!.value);
  }, [customer, programs, form]);

  const onSubmit = form.handleSubmit(async () => {
    // The resolver answered the parsed request; the raw values are re-read to build it again.
    const values = form.getValues();
    setFailure(null);
    try {
      const saved = customer ? await update.mutateAsync({ id: customer.id, ...toUpdate(values), version: conflict.version ?? customer.version }) : await create.mutateAsync(toCreate(values));
      const name = `${saved.firstName} ${saved.lastName}`;
      notifySuccess(customer ? t('form.saved', { name }) : t('form.created', { name, card: saved.cardNumber }));
      onSaved(saved);
    } catch (error) {
      if (conflict.catchConflict(error)) return;
      if (hasFieldErrors(error)) {
        const fields = error.fields?.map((item) => ({ ...item, field: item.field.replace(/^consents\.\w+\./, '') }));
        if (applyServerFieldErrors(form, fields)) return;
      }
      setFailure(error);
    }
  });

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
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('form.firstName')} required autoComplete="off" data-autofocus {...form.register('firstName')} error={errors.firstName?.message} />
          <TextInput label={t('form.lastName')} required autoComplete="off" {...form.register('lastName')} error={errors.lastName?.message} />
          <TextInput label={t('form.email')} type="email" autoComplete="off" {...form.register('email')} error={errors.email?.message} />
          <TextInput label={t('form.phone')} type="tel" autoComplete="off" {...form.register('phone')} error={errors.phone?.message} />
          <Controller
            control={form.control}
            name="birthDate"
            render={({ field }) => <DateField focusRef={field.ref} label={t('form.birthDate')} value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} error={errors.birthDate?.message} clearable isYearFirst />}
          />
          <TextInput label={t('form.city')} {...form.register('city')} error={errors.city?.message} />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="province"
          render={({ field }) => (
            <Select
              ref={field.ref}
              label={t('form.province')}
              searchable
              clearable
              data={[...PROVINCES]}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              error={errors.province?.message}
              w={160}
            />
          )}
        />
        <Controller
          control={form.control}
          name="language"
          render={({ field }) => (
            <Select
              ref={field.ref}
              label={t('form.language')}
              description={t('form.languageHint')}
              allowDeselect={false}
              data={LANGUAGES.map((value) => ({ value, label: t(`language.${value}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(value ?? 'it')}
              onBlur={field.onBlur}
              error={errors.language?.message}
              w={320}
            />
          )}
        />
        {customer ? null : (
          <>
            <Controller
              control={form.control}
              name="programId"
              render={({ field }) => (
                <Select
                  ref={field.ref}
                  label={t('form.program')}
                  description={t('form.programHint')}
                  placeholder={programs?.length === 0 ? t('form.noProgram') : undefined}
                  clearable
                  data={programs ?? []}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  onBlur={field.onBlur}
                  error={errors.programId?.message}
                />
              )}
            />
            <TextInput label={t('form.referrerCode')} {...form.register('referrerCode')} error={errors.referrerCode?.message} maxLength={8} />
            <Title order={3} size="h5">
              {t('form.consents')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('form.consentsHint')}
            </Text>
            <Checkbox label={t('purpose.service')} checked disabled readOnly />
            <Checkbox label={t('purpose.marketing')} {...form.register('marketing')} />
            <Checkbox label={t('purpose.profiling')} {...form.register('profiling')} />
            <TextInput label={t('form.noticeVersion')} required {...form.register('noticeVersion')} error={errors.noticeVersion?.message} w={200} />
          </>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={isBusy} disabled={isBusy}>
            {customer ? t('form.save') : t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type Props = {
  isOpen: boolean;
  /** The search parameter that addresses the drawer (`?customer=new`, `?edit=1`): leaving it with unsaved edits asks first. */
  param: string;
  customer: Customer | null;
  onClose: () => void;
  onSaved: (customer: Customer) => void;
};

export function CustomerFormDrawer({ isOpen, param, customer, onClose, onSaved }: Props) {
  const { t } = useTranslation('customers');
  const guard = useUnsavedChangesGuard({ param, close: onClose });
  return (
    <Drawer opened={isOpen} onClose={() => void guard.requestClose()} position="right" size="lg" title={customer ? t('form.editTitle') : t('form.newTitle')} closeButtonProps={{ 'aria-label': t('form.close') }}>
      <UnsavedChangesScope guard={guard}>
        {isOpen ? (
          <CustomerForm
            key={customer?.id ?? 'new'}
            customer={customer}
            onSaved={(saved) => {
              guard.forgetEdits();
              onSaved(saved);
            }}
          />
        ) : null}
      </UnsavedChangesScope>
    </Drawer>
  );
}
