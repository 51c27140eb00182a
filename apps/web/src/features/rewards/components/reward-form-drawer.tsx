import { Button, Drawer, FileInput, Group, Image, Loader, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { REWARD_STATUSES, createRewardSchema, type CreateReward, type Reward, type UpdateReward } from '@sf/contract/rewards';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { FocusFirstField } from '../../../components/ui/focus-first-field.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { UnsavedChangesScope, useReportUnsavedChanges, useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes.tsx';
import { VersionConflictNotice, useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { hasFieldErrors } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { getReward, useReward } from '../api/get-rewards.ts';
import { uploadRewardImage, useSaveReward } from '../api/save-reward.ts';
import { DateField } from '../../../components/ui/date-fields.tsx';

type Num = number | string;
type Values = {
  programId: string;
  name: string;
  description: string;
  imageId: string | null;
  cost: Num;
  stock: Num;
  limitPerCustomer: Num;
  validFrom: string;
  validUntil: string;
  status: CreateReward['status'];
};

const numberOrNull = (value: Num): number | null => (value === '' || value === null || value === undefined ? null : Number(value));
/** The window is sent as the business days typed (`YYYY-MM-DD`, both included): no instant, no browser time zone. */
const dayOrNull = (day: string) => (day ? day : null);

function toValues(reward: Reward | null): Values {
  return {
    programId: reward?.programId ?? '',
    name: reward?.name ?? '',
    description: reward?.description ?? '',
    imageId: reward?.imageId ?? null,
    cost: reward?.cost ?? '',
    stock: reward?.stock ?? '',
    limitPerCustomer: reward?.limitPerCustomer ?? '',
    validFrom: reward?.validFrom ?? '',
    validUntil: reward?.validUntil ?? '',
    status: reward?.status ?? 'draft',
  };
}

function toRequest(values: Values): CreateReward {
  return {
    programId: values.programId,
    name: values.name,
    description: values.description,
    imageId: values.imageId,
    cost: numberOrNull(values.cost) as number,
    stock: numberOrNull(values.stock),
    limitPerCustomer: numberOrNull(values.limitPerCustomer),
    validFrom: dayOrNull(values.validFrom),
    validUntil: dayOrNull(values.validUntil),
    status: values.status,
  };
}

const loadSchema = async () => z.preprocess((value) => toRequest(value as Values), createRewardSchema);

type ProgramOption = { value: string; label: string; type: 'points' | 'stamps' };

function RewardForm({ reward, programs, onSaved }: { reward: Reward | null; programs: ProgramOption[]; onSaved: (reward: Reward) => void }) {
  const { t } = useTranslation('rewards');
  const [failure, setFailure] = useState<unknown>(null);
  const [imageUrl, setImageUrl] = useState<string | null>(reward?.imageUrl ?? null);
  const [isUploading, setIsUploading] = useState(false);
  const form = useForm<Values>({ mode: 'onTouched', defaultValues: toValues(reward), resolver: contractResolver<Values>(loadSchema) });
  useRevalidateOnLanguageChange(form);
  useReportUnsavedChanges(form.formState.isDirty, { name: 'reward', form });
  const save = useSaveReward();
  const conflict = useVersionConflict({
    form,
    record: reward,
    load: () => getReward(reward?.id ?? ''),
    toValues,
    // An image is named, not shown as its id; the preview follows the image the form now holds.
    describeValue: (field) => (field === 'imageId' ? null : undefined),
    onReloaded: (fresh) => {
      if (form.getValues('imageId') === fresh.imageId) setImageUrl(fresh.imageUrl);
    },
  });
  const { errors } = form.formState;
  const program = programs.find((option) => option.value === form.watch('programId'));
  const unit = reward?.costUnit ?? program?.type ?? 'points';

  const onSubmit = form.handleSubmit(async () => {
    setFailure(null);
    try {
      const body = toRequest(form.getValues());
      const { programId: _programId, ...changes } = body;
      const saved = await save.mutateAsync(reward ? { id: reward.id, body: { ...changes, version: conflict.version ?? reward.version } as UpdateReward } : { id: null, body });
      notifySuccess(t(reward ? 'form.saved' : 'form.created', { name: saved.name }));
      onSaved(saved);
    } catch (error) {
      if (conflict.catchConflict(error)) return;
      if (hasFieldErrors(error) && applyServerFieldErrors(form, error.fields)) return;
      setFailure(error);
    }
  });

  const onImage = async (file: File | null) => {
    if (!file) {
      form.setValue('imageId', null, { shouldDirty: true });
      setImageUrl(null);
      return;
    }
    setIsUploading(true);
    try {
      const uploaded = await uploadRewardImage(file);
      form.setValue('imageId', uploaded.id, { shouldDirty: true });
      setImageUrl(uploaded.url);
    } catch {
      // The API client has shown why (not an image, too large).
    } finally {
      setIsUploading(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <VersionConflictNotice conflict={conflict.notice} />
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {describeApiError(failure)}
          </Text>
        ) : null}
        <Controller
          control={form.control}
          name="programId"
          render={({ field }) => (
            <Select
              ref={field.ref}
              label={t('form.program')}
              data={programs.map(({ value, label }) => ({ value, label }))}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              disabled={reward !== null}
              // A new reward starts from its program; an existing one (program fixed) from its name.
              data-autofocus={reward === null || undefined}
              required
              searchable
              error={errors.programId?.message}
            />
          )}
        />
        <TextInput label={t('form.name')} required data-autofocus={reward !== null || undefined} {...form.register('name')} error={errors.name?.message} />
        <Textarea label={t('form.description')} autosize minRows={2} {...form.register('description')} error={errors.description?.message} />
        <Group align="flex-end">
          <FileInput label={t('form.image')} accept="image/png,image/jpeg,image/webp,image/gif" clearable onChange={(file) => void onImage(file)} placeholder={t('form.imagePlaceholder')} style={{ flex: 1 }} />
          {isUploading ? <Loader size="sm" aria-label={t('form.uploading')} /> : null}
        </Group>
        {imageUrl ? <Image src={imageUrl} alt={t('form.imageAlt')} h={120} w="auto" fit="contain" radius="sm" /> : null}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {(['cost', 'stock', 'limitPerCustomer'] as const).map((name) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field, fieldState }) => (
                <NumberInput
                  ref={field.ref}
                  label={name === 'cost' ? t(`form.cost.${unit}`) : t(`form.${name}`)}
                  description={name === 'cost' ? undefined : t('form.blankUnlimited')}
                  required={name === 'cost'}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  min={name === 'stock' ? 0 : 1}
                  // As typed, not clamped on blur: a number out of bounds is named by the contract's
                  // message ("Costo deve essere almeno 1"), never changed silently.
                  clampBehavior="none"
                  allowDecimal={false}
                  error={fieldState.error?.message}
                />
              )}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(['validFrom', 'validUntil'] as const).map((name) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field }) => <DateField focusRef={field.ref} label={t(`form.${name}`)} value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} error={errors[name]?.message} clearable />}
            />
          ))}
        </SimpleGrid>
        <Controller
          control={form.control}
          name="status"
          render={({ field }) => (
            <Select
              ref={field.ref}
              label={t('form.status')}
              data={REWARD_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
              value={field.value}
              onChange={(value) => field.onChange(value ?? 'draft')}
              allowDeselect={false}
            />
          )}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending || isUploading}>
            {reward ? t('form.save') : t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The reward's form in a drawer addressed by `?reward=new` or `?reward=<id>`. */
export function RewardFormDrawer({ target, programs, onClose, onSaved }: { target: string | null; programs: ProgramOption[]; onClose: () => void; onSaved: (reward: Reward) => void }) {
  const { t } = useTranslation('rewards');
  const isNew = target === 'new';
  const query = useReward(target && !isNew ? target : null);
  const guard = useUnsavedChangesGuard({ param: 'reward', close: onClose });
  // What was just saved has nothing left to lose: the page may close the drawer or move on.
  const afterSave = (saved: Reward) => {
    guard.forgetEdits();
    onSaved(saved);
  };
  return (
    <Drawer
      opened={target !== null}
      onClose={() => void guard.requestClose()}
      position="right"
      size="lg"
      // Nothing to edit over a read that failed: the entity alone above the alert that says why.
      title={isNew ? t('form.titleNew') : isBlockingFailure(query) ? t('form.readFailedTitle') : t('form.titleEdit')}
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <UnsavedChangesScope guard={guard}>
        {target === null ? null : isNew ? (
          <RewardForm reward={null} programs={programs} onSaved={afterSave} />
        ) : query.data ? (
          // A failed refetch keeps the form and what was typed in it, under a notice that says so.
          <Stack gap="md">
            <StaleDataNotice query={query} />
            <RewardForm key={`${query.data.id}-${query.data.version}`} reward={query.data} programs={programs} onSaved={afterSave} />
            <FocusFirstField />
          </Stack>
        ) : query.isError ? (
          // The same words as the reward's page (`RecordNotFound`) for a reward that is not there.
          <FailureAlert error={query.error} missing={{ title: t('notFound.title'), text: t('notFound.text') }} />
        ) : (
          <Loader aria-label={t('loading')} />
        )}
      </UnsavedChangesScope>
    </Drawer>
  );
}
