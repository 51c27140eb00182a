import { ActionIcon, Button, ColorInput, Drawer, FileButton, Group, Image, Loader, MultiSelect, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core';
import {
  BONUS_KINDS,
  EXPIRY_POLICIES,
  NO_BONUSES,
  PROGRAM_STATUSES,
  TIER_WINDOWS,
  WALLET_LOGO_MAX_CHARS,
  createProgramSchema,
  type Bonuses,
  type CreateProgram,
  type Program,
} from '@sf/contract/programs';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AMOUNT_DECIMAL_MARKS, AmountField, amountDecimalsProblem } from '../../../components/ui/amount-input.tsx';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { FocusFirstField } from '../../../components/ui/focus-first-field.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { VersionConflictNotice, useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { UnsavedChangesScope, useReportUnsavedChanges, useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes.tsx';
import { useMountedOnceOpened } from '../../../hooks/use-mounted-once-opened.ts';
import { describeApiError } from '../../../lib/api-client.ts';
import { hasFieldErrors } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { euroToCents } from '../../../lib/form-values.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateProgram } from '../api/create-program.ts';
import { getProgram, useProgram } from '../api/get-program.ts';
import { useUpdateProgram } from '../api/update-program.ts';
import { ProgramServiceEmails, type RenderCustomerPicker } from './program-service-emails.tsx';

type Num = number | string;

/** The form mirrors the request's shape (so the contract's issues land on its fields); `minSpendCents` is typed in euro. */
type Values = {
  name: string;
  type: CreateProgram['type'];
  merchantIds: string[];
  status: CreateProgram['status'];
  pointsPerEuro: Num;
  minSpendCents: Num;
  stampsRequired: Num;
  maxStampsPerDay: Num;
  maxStampsPerTransaction: Num;
  tiers: { name: string; minPoints: Num; multiplier: Num }[];
  tierWindow: CreateProgram['tierWindow'];
  expiry: { policy: CreateProgram['expiry']['policy']; days: Num };
  bonuses: Bonuses;
  /** The wallet pass's look: '' for none. */
  walletBackgroundColor: string;
  walletForegroundColor: string;
  walletLogo: string | null;
  terms: string;
};

const blank = (value: number | null | undefined): Num => (value === null || value === undefined ? '' : value);
const numberOrNull = (value: Num): number | null => (value === '' || value === null || value === undefined ? null : Number(value));

function toValues(program: Program | null): Values {
  return {
    name: program?.name ?? '',
    type: program?.type ?? 'points',
    merchantIds: program?.merchantIds ?? [],
    status: program?.status ?? 'draft',
    pointsPerEuro: blank(program?.pointsPerEuro ?? (program ? null : 1)),
    minSpendCents: program?.minSpendCents ? program.minSpendCents / 100 : '',
    stampsRequired: blank(program?.stampsRequired),
    maxStampsPerDay: blank(program?.maxStampsPerDay),
    maxStampsPerTransaction: blank(program?.maxStampsPerTransaction),
    tiers: program?.tiers ?? [],
    tierWindow: program?.tierWindow ?? 'rolling12',
    expiry: { policy: program?.expiry.policy ?? 'never', days: blank(program?.expiry.days) },
    bonuses: program?.bonuses ?? NO_BONUSES,
    walletBackgroundColor: program?.walletBackgroundColor ?? '',
    walletForegroundColor: program?.walletForegroundColor ?? '',
    walletLogo: program?.walletLogo ?? null,
    terms: program?.terms ?? '',
  };
}

const textOrNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** A PNG file as the data: URL the contract takes (the pass embeds it; the card page serves it). */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(file);
  });
}

/** Only the rules of the chosen type are sent; amounts become integer cents. */
function toRequest(values: Values): CreateProgram {
  const isPoints = values.type === 'points';
  return {
    name: values.name,
    type: values.type,
    merchantIds: values.merchantIds,
    status: values.status,
    pointsPerEuro: isPoints ? numberOrNull(values.pointsPerEuro) : null,
    minSpendCents: isPoints ? euroToCents(values.minSpendCents) : null,
    stampsRequired: isPoints ? null : numberOrNull(values.stampsRequired),
    maxStampsPerDay: isPoints ? null : numberOrNull(values.maxStampsPerDay),
    maxStampsPerTransaction: isPoints ? null : numberOrNull(values.maxStampsPerTransaction),
    tiers: values.tiers.map((tier) => ({ name: tier.name, minPoints: Number(tier.minPoints), multiplier: Number(tier.multiplier) })),
    tierWindow: values.tierWindow,
    expiry: { policy: values.expiry.policy, days: values.expiry.policy === 'afterDays' ? numberOrNull(values.expiry.days) : null },
    bonuses: values.bonuses,
    walletBackgroundColor: textOrNull(values.walletBackgroundColor),
    walletForegroundColor: textOrNull(values.walletForegroundColor),
    walletLogo: values.walletLogo,
    terms: textOrNull(values.terms),
  } as CreateProgram;
}

const loadSchema = async () => z.preprocess((value) => toRequest(value as Values), createProgramSchema);

/** The contract sees cents: a third decimal typed in euro is refused here, by name, before it is rounded away. */
function minSpendProblem(values: Values) {
  const message = values.type === 'points' ? amountDecimalsProblem('minSpendCents', values.minSpendCents) : null;
  return message ? { field: 'minSpendCents', message } : null;
}

function NumberField({ form, name, label, description, decimal }: { form: ReturnType<typeof useForm<Values>>; name: FieldPath<Values>; label: string; description?: string; decimal?: boolean }) {
  const { i18n } = useTranslation();
  const isItalian = i18n.language === 'it';
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          // Lets react-hook-form focus the field (and scroll it into view) when a submit is refused on it.
          ref={field.ref}
          label={label}
          description={description}
          value={field.value as Num}
          onChange={field.onChange}
          onBlur={field.onBlur}
          // What was typed stays, a negative too, and the contract names what is wrong with it: Mantine's
          // clamp on blur turned -5 into 0 without a word.
          min={0}
          clampBehavior="none"
          allowDecimal={decimal ?? false}
          decimalScale={decimal ? 2 : 0}
          decimalSeparator={isItalian ? ',' : '.'}
          // As the amount field (AmountInput): either mark starts the decimals and no thousands mark is
          // read while typing, so "1.5" is 1,5 and never 15. A whole number takes no mark at all.
          allowedDecimalSeparators={decimal ? AMOUNT_DECIMAL_MARKS : []}
          thousandSeparator={false}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** The circuit's merchants (closed on focus, as every Select: the theme), so a refused submit's focus leaves "Esercenti sono obbligatori" in view. */
function MerchantsField({ form, options }: { form: ReturnType<typeof useForm<Values>>; options: { value: string; label: string }[] }) {
  const { t } = useTranslation('programs');
  return (
    <Controller
      control={form.control}
      name="merchantIds"
      render={({ field, fieldState }) => (
        <MultiSelect
          ref={field.ref}
          label={t('form.merchants')}
          description={t('form.merchantsHint')}
          required
          searchable
          data={options}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function ProgramForm({ program, merchantOptions, onSaved }: { program: Program | null; merchantOptions: { value: string; label: string }[]; onSaved: (program: Program) => void }) {
  const { t } = useTranslation('programs');
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<Values>({ mode: 'onTouched', defaultValues: toValues(program), resolver: contractResolver<Values>(loadSchema, minSpendProblem) });
  useRevalidateOnLanguageChange(form);
  useReportUnsavedChanges(form.formState.isDirty, { name: 'program', form });
  const tiers = useFieldArray({ control: form.control, name: 'tiers' });
  const create = useCreateProgram();
  const update = useUpdateProgram();
  const conflict = useVersionConflict({
    form,
    record: program,
    load: () => getProgram(program?.id ?? ''),
    toValues,
    // A logo is an image: named, not printed as its data.
    describeValue: (field) => (field === 'walletLogo' ? null : undefined),
  });
  const type = form.watch('type');
  const policy = form.watch('expiry.policy');
  const logo = form.watch('walletLogo');
  const [logoProblem, setLogoProblem] = useState<string | null>(null);
  const { errors } = form.formState;

  const chooseLogo = async (file: File | null) => {
    setLogoProblem(null);
    if (!file) return;
    const dataUrl = await readAsDataUrl(file);
    if (!dataUrl.startsWith('data:image/png;base64,')) return setLogoProblem(t('form.walletLogoPngOnly'));
    if (dataUrl.length > WALLET_LOGO_MAX_CHARS) return setLogoProblem(t('form.walletLogoTooLarge'));
    form.setValue('walletLogo', dataUrl, { shouldDirty: true });
  };

  const onSubmit = form.handleSubmit(async () => {
    setFailure(null);
    try {
      const body = toRequest(form.getValues());
      const saved = program ? await update.mutateAsync({ id: program.id, ...body, version: conflict.version ?? program.version }) : await create.mutateAsync(body);
      notifySuccess(t(program ? 'form.saved' : 'form.created', { name: saved.name }));
      onSaved(saved);
    } catch (error) {
      if (conflict.catchConflict(error)) return;
      if (hasFieldErrors(error) && applyServerFieldErrors(form, error.fields)) return;
      setFailure(error);
    }
  });

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
          {t('form.general')}
        </Title>
        <TextInput label={t('form.name')} required data-autofocus {...form.register('name')} error={errors.name?.message} />
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="program-type-label">
                {t('form.type')}
              </Text>
              <SegmentedControl
                aria-labelledby="program-type-label"
                data={[
                  { value: 'points', label: t('type.points') },
                  { value: 'stamps', label: t('type.stamps') },
                ]}
                value={field.value}
                onChange={field.onChange}
                ref={field.ref}
              />
            </Stack>
          )}
        />
        <MerchantsField form={form} options={merchantOptions} />
        <Controller
          control={form.control}
          name="status"
          render={({ field }) => (
            <Select ref={field.ref} label={t('form.status')} data={PROGRAM_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))} value={field.value} onChange={(value) => value && field.onChange(value)} allowDeselect={false} w={200} />
          )}
        />
        <Title order={3} size="h5">
          {t('form.rules')}
        </Title>
        {type === 'points' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberField form={form} name="pointsPerEuro" label={t('form.pointsPerEuro')} description={t('form.pointsPerEuroHint')} decimal />
            <AmountField form={form} name="minSpendCents" label={t('form.minSpend')} />
          </SimpleGrid>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberField form={form} name="stampsRequired" label={t('form.stampsRequired')} />
            <NumberField form={form} name="maxStampsPerDay" label={t('form.maxStampsPerDay')} />
            <NumberField form={form} name="maxStampsPerTransaction" label={t('form.maxStampsPerTransaction')} />
          </SimpleGrid>
        )}
        <Title order={3} size="h5">
          {t('form.tiers')}
        </Title>
        <Controller
          control={form.control}
          name="tierWindow"
          render={({ field }) => (
            <Select ref={field.ref} label={t('form.tierWindow')} data={TIER_WINDOWS.map((value) => ({ value, label: t(`tierWindow.${value}`) }))} value={field.value} onChange={(value) => value && field.onChange(value)} allowDeselect={false} w={220} />
          )}
        />
        {tiers.fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('form.noTiers')}
          </Text>
        ) : null}
        {tiers.fields.map((tier, index) => (
          <Group key={tier.id} align="flex-end" gap="xs" wrap="nowrap">
            <TextInput label={t('form.tierName', { n: index + 1 })} {...form.register(`tiers.${index}.name`)} error={errors.tiers?.[index]?.name?.message} style={{ flex: 2 }} />
            <NumberField form={form} name={`tiers.${index}.minPoints`} label={t('form.tierMinPoints', { n: index + 1 })} />
            <NumberField form={form} name={`tiers.${index}.multiplier`} label={t('form.tierMultiplier', { n: index + 1 })} decimal />
            <ActionIcon variant="subtle" color="red" size="lg" mb={4} onClick={() => tiers.remove(index)} aria-label={t('form.removeTier', { n: index + 1 })}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => tiers.append({ name: '', minPoints: tiers.fields.length === 0 ? 0 : '', multiplier: 1 })}
            disabled={tiers.fields.length >= 10}
          >
            {t('form.addTier')}
          </Button>
        </Group>
        <Title order={3} size="h5">
          {t('form.expiry')}
        </Title>
        <Group align="flex-end">
          <Controller
            control={form.control}
            name="expiry.policy"
            render={({ field }) => (
              <Select ref={field.ref} label={t('form.expiryPolicy')} data={EXPIRY_POLICIES.map((value) => ({ value, label: t(`expiry.${value}`) }))} value={field.value} onChange={(value) => value && field.onChange(value)} allowDeselect={false} w={300} />
            )}
          />
          {policy === 'afterDays' ? <NumberField form={form} name="expiry.days" label={t('form.expiryDays')} /> : null}
        </Group>
        <Title order={3} size="h5">
          {t('form.bonuses')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('form.bonusHint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {BONUS_KINDS.map((bonus) => (
            <Group key={bonus} grow gap="xs">
              <NumberField form={form} name={`bonuses.${bonus}.points`} label={t('form.bonusPoints', { bonus: t(`bonus.${bonus}`) })} />
              <NumberField form={form} name={`bonuses.${bonus}.capPerMonth`} label={t('form.bonusCap', { bonus: t(`bonus.${bonus}`) })} />
            </Group>
          ))}
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('form.wallet')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('form.walletHint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(['walletBackgroundColor', 'walletForegroundColor'] as const).map((name) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field, fieldState }) => (
                <ColorInput ref={field.ref} label={t(`form.${name}`)} format="hex" withEyeDropper={false} placeholder={name === 'walletBackgroundColor' ? '#1c3d5a' : '#ffffff'} value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={fieldState.error?.message} />
              )}
            />
          ))}
        </SimpleGrid>
        <Group align="center" gap="sm">
          {logo ? <Image src={logo} alt={t('form.walletLogo')} w={48} h={48} fit="contain" radius="sm" /> : null}
          <FileButton onChange={(file) => void chooseLogo(file)} accept="image/png">
            {(props) => (
              <Button variant="light" size="xs" {...props}>
                {logo ? t('form.walletLogoReplace') : t('form.walletLogoChoose')}
              </Button>
            )}
          </FileButton>
          {logo ? (
            <Button variant="subtle" color="red" size="xs" onClick={() => form.setValue('walletLogo', null, { shouldDirty: true })}>
              {t('form.walletLogoRemove')}
            </Button>
          ) : null}
          <Text size="xs" c={logoProblem || errors.walletLogo ? 'red' : 'dimmed'} role={logoProblem ? 'alert' : undefined}>
            {logoProblem ?? errors.walletLogo?.message ?? t('form.walletLogoHint')}
          </Text>
        </Group>
        <Textarea label={t('form.terms')} autosize minRows={2} maxRows={6} {...form.register('terms')} error={errors.terms?.message} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {program ? t('form.save') : t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * An existing program has its "Messaggi automatici" (service e-mails) beside its rules. Both panels
 * stay mounted once shown, so that switching tab keeps what was typed in the other (and the drawer's
 * unsaved-changes check still sees it); the e-mails are read only when their tab is first opened.
 */
function ProgramTabs({ program, merchantOptions, renderCustomerPicker }: { program: Program; merchantOptions: { value: string; label: string }[]; renderCustomerPicker: RenderCustomerPicker }) {
  const { t } = useTranslation('programs');
  const [tab, setTab] = useState<string | null>('program');
  const hasServiceEmails = useMountedOnceOpened(tab === 'serviceEmails');
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List mb="md">
        <Tabs.Tab value="program">{t('tabs.program')}</Tabs.Tab>
        <Tabs.Tab value="serviceEmails">{t('tabs.serviceEmails')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="program">
        <ProgramForm key={`${program.id}-${program.version}`} program={program} merchantOptions={merchantOptions} onSaved={() => undefined} />
      </Tabs.Panel>
      <Tabs.Panel value="serviceEmails">{hasServiceEmails ? <ProgramServiceEmails programId={program.id} renderCustomerPicker={renderCustomerPicker} /> : null}</Tabs.Panel>
    </Tabs>
  );
}

type Props = {
  target: string | null;
  merchantOptions: { value: string; label: string }[];
  onClose: () => void;
  onCreated: (id: string) => void;
  renderCustomerPicker: RenderCustomerPicker;
};

export function ProgramFormDrawer({ target, merchantOptions, onClose, onCreated, renderCustomerPicker }: Props) {
  const { t } = useTranslation('programs');
  const id = target && target !== 'new' ? target : null;
  const query = useProgram(id);
  const guard = useUnsavedChangesGuard({ param: 'program', close: onClose });
  return (
    <Drawer
      opened={target !== null}
      onClose={() => void guard.requestClose()}
      position="right"
      size="xl"
      // Nothing to edit over a read that failed: the entity alone above the alert that says why.
      title={target === 'new' ? t('form.newTitle') : isBlockingFailure(query) ? t('form.readFailedTitle') : t('form.editTitle')}
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <UnsavedChangesScope guard={guard}>
        {target === 'new' ? (
          <ProgramForm
            key="new"
            program={null}
            merchantOptions={merchantOptions}
            onSaved={(saved) => {
              guard.forgetEdits();
              onCreated(saved.id);
            }}
          />
        ) : null}
        {id && !query.data && query.isPending ? <Loader aria-label={t('form.loading')} /> : null}
        {id && isBlockingFailure(query) ? <FailureAlert error={query.error} missing={{ title: t('form.notFound.title'), text: t('form.notFound.text') }} /> : null}
        {/* A failed refetch keeps the form and what was typed in it, under a notice that says so. */}
        {id ? <StaleDataNotice query={query} /> : null}
        {query.data ? (
          <>
            <ProgramTabs program={query.data} merchantOptions={merchantOptions} renderCustomerPicker={renderCustomerPicker} />
            <FocusFirstField />
          </>
        ) : null}
      </UnsavedChangesScope>
    </Drawer>
  );
}
