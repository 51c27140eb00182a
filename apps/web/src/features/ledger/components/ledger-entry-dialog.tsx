import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text, Textarea } from '@mantine/core';
import { LEDGER_BOUNDS, createLedgerEntrySchema, type CreateLedgerEntry } from '@sf/contract/ledger';
import type { Program } from '@sf/contract/programs';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AmountField, amountDecimalsProblem } from '../../../components/ui/amount-input.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { euroToCents } from '../../../lib/form-values.ts';
import { useFormatters } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCreateLedgerEntry } from '../api/create-ledger-entry.ts';
import { useMemberships } from '../api/get-memberships.ts';
import { balanceWords, unitWord } from '../lib/balance-words.ts';
import { newIdempotencyKey } from '../lib/idempotency.ts';
import { previewPurchase } from '../lib/points-preview.ts';

export type LedgerDialogKind = 'purchase' | 'redeem' | 'adjust';

export type DialogCustomer = { id: string; label: string };

type Num = number | string;

/** Field names follow the request, so the contract's issues land on them; `amountCents` is typed in euro. */
type Values = { customerId: string; programId: string; merchantId: string; amountCents: Num; points: Num; stamps: Num; reason: string };

type Props = {
  kind: LedgerDialogKind | null;
  onClose: () => void;
  /** The customer, when the dialog opens from their page. */
  customer?: DialogCustomer | null;
  /** The customer search, composed by the caller (the customers feature). */
  renderCustomerPicker: (props: { value: DialogCustomer | null; onChange: (customer: DialogCustomer | null) => void; error: string | undefined }) => ReactNode;
  programs: Program[];
  merchantOptions: { value: string; label: string }[];
};

const toNumber = (value: Num): number | undefined => (value === '' || value === null || value === undefined ? undefined : Number(value));

function toRequest(kind: LedgerDialogKind, values: Values, program: Program | undefined): CreateLedgerEntry {
  const isStamps = program?.type === 'stamps';
  const body: Record<string, unknown> = { customerId: values.customerId, programId: values.programId, kind };
  if (values.merchantId) body.merchantId = values.merchantId;
  if (kind === 'purchase') {
    body.amountCents = euroToCents(values.amountCents) ?? undefined;
    if (isStamps && toNumber(values.stamps) !== undefined) body.stamps = toNumber(values.stamps);
  } else if (isStamps) {
    body.stamps = toNumber(values.stamps);
  } else {
    body.points = toNumber(values.points);
  }
  if (values.reason.trim()) body.reason = values.reason.trim();
  return body as CreateLedgerEntry;
}

function EntryForm({ kind, onClose, customer: presetCustomer, renderCustomerPicker, programs, merchantOptions }: Props & { kind: LedgerDialogKind }) {
  const { t } = useTranslation('ledger');
  const format = useFormatters();
  const [customer, setCustomer] = useState<DialogCustomer | null>(presetCustomer ?? null);
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [failure, setFailure] = useState<string | null>(null);
  // One key per submission: created when the user reaches "confirm", reused if that confirmation is retried.
  const key = useRef<string | null>(null);
  const programsById = new Map(programs.map((program) => [program.id, program]));
  const memberships = useMemberships(customer?.id ?? null);
  const memberOf = (id: string) => memberships.data?.items.find((item) => item.programId === id);

  /**
   * Taking away more than the member holds (a redemption, or a negative adjustment) is said on the field,
   * before the confirm step; the API still decides. Not yet a member of the program means nothing to take.
   */
  const overBalance = (values: Values): string | null => {
    const chosen = programsById.get(values.programId);
    if (kind === 'purchase' || !chosen || !memberships.data) return null;
    const inStamps = chosen.type === 'stamps';
    const typed = toNumber(inStamps ? values.stamps : values.points);
    if (typed === undefined || !Number.isFinite(typed)) return null;
    const requested = kind === 'redeem' ? typed : -typed;
    const member = memberOf(values.programId);
    const balance = (inStamps ? member?.stamps : member?.balance) ?? 0;
    if (requested <= 0 || requested <= balance) return null;
    return t('dialog.overBalance', { balance: format.number(balance), value: format.number(requested), unit: unitWord(t, inStamps, balance) });
  };

  /** Cents are the smallest money there is: a third decimal is refused by name, never rounded away. */
  const amountProblem = (values: Values): string | null => (kind === 'purchase' ? amountDecimalsProblem('amountCents', values.amountCents) : null);

  const form = useForm<Values>({
    mode: 'onTouched',
    defaultValues: { customerId: presetCustomer?.id ?? '', programId: programs.length === 1 ? programs[0]!.id : '', merchantId: '', amountCents: '', points: '', stamps: kind === 'purchase' ? '' : '', reason: '' },
    resolver: contractResolver<Values>(
      async () => z.preprocess((value) => toRequest(kind, value as Values, programsById.get((value as Values).programId)), createLedgerEntrySchema),
      (values) => {
        const amount = amountProblem(values);
        if (amount) return { field: 'amountCents', message: amount };
        const beyond = overBalance(values);
        return beyond ? { field: programsById.get(values.programId)?.type === 'stamps' ? 'stamps' : 'points', message: beyond } : null;
      },
    ),
  });
  useRevalidateOnLanguageChange(form);
  const create = useCreateLedgerEntry();
  const programId = form.watch('programId');
  const program = programsById.get(programId);
  const membership = memberOf(programId);
  const { errors } = form.formState;
  const isStamps = program?.type === 'stamps';
  // The field the operator fills first takes the focus when the dialog opens: the customer when not
  // given, else the program when there is a choice, else the amount (a purchase) or the points/stamps.
  const firstField = !presetCustomer ? 'customer' : !form.getValues('programId') ? 'program' : kind === 'purchase' ? 'amount' : 'value';

  // Each step puts the focus where the eyes are: the summary on "Conferma", so that a second, deliberate
  // Enter confirms (the step that showed it unmounted the focused field, leaving the focus on the page's
  // body, where Enter did nothing); back on the form, on its first wrong field, else its first field.
  const confirmButton = useRef<HTMLButtonElement>(null);
  const formElement = useRef<HTMLFormElement>(null);
  const hasShownSummary = useRef(false);
  useEffect(() => {
    if (step === 'confirm') {
      hasShownSummary.current = true;
      confirmButton.current?.focus();
    } else if (hasShownSummary.current) {
      formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-autofocus]')?.focus();
    }
  }, [step]);

  const goToConfirm = form.handleSubmit(() => {
    key.current = newIdempotencyKey();
    setFailure(null);
    setStep('confirm');
  });

  /** The fields the form step shows, so a server error on one of them can be shown there. */
  const isOnScreen = (name: string): boolean => {
    const root = name.split('.')[0];
    if (root === 'customerId') return !presetCustomer;
    if (root === 'programId') return true;
    if (root === 'merchantId' || root === 'amountCents') return kind === 'purchase';
    if (root === 'stamps') return isStamps;
    if (root === 'points') return !isStamps && kind !== 'purchase';
    if (root === 'reason') return kind !== 'purchase';
    return false;
  };

  const confirm = async () => {
    if (!key.current) key.current = newIdempotencyKey();
    setFailure(null);
    try {
      const result = await create.mutateAsync({ ...toRequest(kind, form.getValues(), program), idempotencyKey: key.current });
      notifySuccess(t(`dialog.done.${kind}`, { balance: balanceWords(t, format.number, program?.type, result.membership.balance, result.membership.stamps) }));
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'validation' && error.fields?.length) {
        // A field on screen shows its own error (back to the form); one that is not (the preset customer,
        // a value this kind of entry does not ask for) is said in the dialog, never dropped.
        const onScreen = error.fields.filter((item) => isOnScreen(item.field));
        const offScreen = error.fields.filter((item) => !isOnScreen(item.field));
        if (offScreen.length > 0) setFailure(offScreen.map((item) => item.message).join(' · '));
        if (onScreen.length > 0 && applyServerFieldErrors(form, onScreen)) setStep('form');
        if (onScreen.length > 0 || offScreen.length > 0) return;
      }
      // A refusal (insufficient balance, blocked customer…) carries the API's own text; a lost answer may be retried with the same key.
      const isRetryable = !isApiError(error) || error.status === 0 || error.status >= 500 || error.code === 'idempotency_key_in_flight';
      setFailure(isRetryable ? `${describeApiError(error)} ${t('dialog.retry')}` : isApiError(error) ? error.message : describeApiError(error));
    }
  };

  const amountCents = euroToCents(form.watch('amountCents')) ?? 0;
  const preview = program && kind === 'purchase' ? previewPurchase(program, amountCents, membership?.tier ?? null, toNumber(form.watch('stamps')) ?? 1) : null;
  const value = isStamps ? toNumber(form.watch('stamps')) : toNumber(form.watch('points'));
  // "1 punto", "-1 punto", "5 punti": the word agrees with the number.
  const count = Math.abs(value ?? 0);
  const unit = unitWord(t, isStamps, count);
  const available = (isStamps ? membership?.stamps : membership?.balance) ?? 0;

  if (step === 'confirm') {
    return (
      <Stack gap="md">
        <Text fw={600}>{t('dialog.summary')}</Text>
        <Text>{customer?.label}</Text>
        <Text>{program?.name}</Text>
        {kind === 'purchase' ? <Text>{format.currency(amountCents / 100)}</Text> : null}
        <Alert color="blue" role="status">
          {kind === 'purchase' && preview
            ? preview.stamps > 0
              ? t('dialog.willEarnStamps', { count: preview.stamps, stamps: format.number(preview.stamps) })
              : t('dialog.willEarnPoints', { count: preview.points, points: format.number(preview.points) })
            : kind === 'redeem'
              ? t('dialog.willRedeem', { count, value: format.number(value ?? 0), unit })
              : t('dialog.willAdjust', { value: `${(value ?? 0) > 0 ? '+' : ''}${format.number(value ?? 0)}`, unit })}
        </Alert>
        {kind === 'purchase' && preview && preview.points === 0 && preview.stamps === 0 && program?.minSpendCents ? <Text size="sm">{t('dialog.belowMinSpend')}</Text> : null}
        {membership ? (
          <Text size="sm" c="dimmed">
            {t('dialog.balanceNow', { balance: balanceWords(t, format.number, program?.type ?? membership.programType, membership.balance, membership.stamps) })}
          </Text>
        ) : null}
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {failure}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setStep('form')} disabled={create.isPending}>
            {t('dialog.back')}
          </Button>
          <Button ref={confirmButton} loading={create.isPending} onClick={() => void confirm()}>
            {t('dialog.confirm')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form ref={formElement} onSubmit={(event) => void goToConfirm(event)} noValidate>
      <Stack gap="md">
        {presetCustomer ? (
          <Text>
            {t('dialog.customer')}: <strong>{presetCustomer.label}</strong>
          </Text>
        ) : (
          renderCustomerPicker({
            value: customer,
            onChange: (picked) => {
              setCustomer(picked);
              form.setValue('customerId', picked?.id ?? '', { shouldValidate: form.formState.isSubmitted });
            },
            error: errors.customerId?.message,
          })
        )}
        <Controller
          control={form.control}
          name="programId"
          render={({ field, fieldState }) => (
            <Select
              label={t('dialog.program')}
              required
              data-autofocus={firstField === 'program' || undefined}
              data={programs.filter((item) => item.status !== 'closed').map((item) => ({ value: item.id, label: item.name }))}
              value={field.value || null}
              onChange={(next) => {
                field.onChange(next ?? '');
                // A merchant outside the new program's circuit is no longer a choice: not kept out of sight.
                const merchantId = form.getValues('merchantId');
                const chosen = next ? programsById.get(next) : undefined;
                if (merchantId && chosen && !chosen.merchantIds.includes(merchantId)) form.setValue('merchantId', '', { shouldValidate: form.formState.isSubmitted });
              }}
              error={fieldState.error?.message}
            />
          )}
        />
        {kind === 'purchase' ? (
          <Controller
            control={form.control}
            name="merchantId"
            render={({ field, fieldState }) => (
              <Select
                label={t('dialog.merchant')}
                searchable
                clearable
                data={program ? merchantOptions.filter((option) => program.merchantIds.includes(option.value)) : merchantOptions}
                value={field.value || null}
                onChange={(next) => field.onChange(next ?? '')}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        ) : null}
        {kind === 'purchase' ? (
          <AmountField form={form} name="amountCents" label={t('dialog.amount')} required data-autofocus={firstField === 'amount' || undefined} />
        ) : null}
        {kind !== 'purchase' || isStamps ? (
          <Controller
            control={form.control}
            name={isStamps ? 'stamps' : 'points'}
            render={({ field, fieldState }) => (
              <NumberInput
                label={kind === 'adjust' ? (isStamps ? t('dialog.signedStamps') : t('dialog.signedPoints')) : isStamps ? t('dialog.stamps') : t('dialog.points')}
                required={kind !== 'purchase'}
                allowDecimal={false}
                allowNegative={kind === 'adjust'}
                data-autofocus={firstField === 'value' || undefined}
                min={kind === 'adjust' ? -(isStamps ? LEDGER_BOUNDS.stampsMax : LEDGER_BOUNDS.pointsMax) : 1}
                // Points typed stay as typed and are refused by name: Mantine's clamp on blur made a 0 a 1.
                clampBehavior="none"
                value={field.value}
                onChange={(next) => {
                  field.onChange(next);
                  // Said while typing, not only at "Continua".
                  const beyond = overBalance({ ...form.getValues(), [field.name]: next });
                  if (beyond) form.setError(field.name, { type: 'balance', message: beyond });
                  else if (fieldState.error?.type === 'balance') form.clearErrors(field.name);
                }}
                onBlur={field.onBlur}
                description={
                  kind === 'purchase' || !program || !memberships.data
                    ? undefined
                    : kind === 'redeem'
                      ? t('dialog.available', { count: available, balance: format.number(available), unit: unitWord(t, isStamps, available) })
                      : t('dialog.balanceNow', { balance: balanceWords(t, format.number, program?.type, membership?.balance ?? 0, membership?.stamps ?? 0) })
                }
                error={fieldState.error?.message}
              />
            )}
          />
        ) : null}
        {kind !== 'purchase' ? (
          <Textarea label={t('dialog.reason')} required={kind === 'adjust'} maxLength={LEDGER_BOUNDS.reasonMax} rows={2} {...form.register('reason')} error={errors.reason?.message} />
        ) : null}
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {failure}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('dialog.cancel')}
          </Button>
          <Button type="submit">{t('dialog.next')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Register a purchase, redeem or adjust points: details → what will happen → confirm (with an Idempotency-Key). */
export function LedgerEntryDialog(props: Props) {
  const { t } = useTranslation('ledger');
  return (
    <Modal opened={props.kind !== null} onClose={props.onClose} title={props.kind ? t(`actions.${props.kind}`) : ''} size="md" closeButtonProps={{ 'aria-label': t('dialog.close') }}>
      {props.kind ? <EntryForm {...props} kind={props.kind} /> : null}
    </Modal>
  );
}
