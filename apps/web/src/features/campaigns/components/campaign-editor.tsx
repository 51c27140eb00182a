import { Alert, Badge, Button, Group, List, Loader, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import type { Campaign, CampaignAudience } from '@sf/contract/campaigns';
import { CAMPAIGN_BOUNDS, createCampaignSchema, isBlankBody } from '@sf/contract/campaigns';
import { errorText } from '@sf/contract/error-texts';
import { message } from '@sf/contract/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, type ReactNode, type Ref } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Can } from '../../../components/can.tsx';
import { VersionConflictNotice, useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { useFormatters } from '../../../lib/format.ts';
import { hasFieldErrors } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { currentLanguage } from '../../../lib/texts.ts';
import { nowAsWallClock, wallClockToInstant } from '../../../lib/time-zone.ts';
import { campaignAudienceQuery, useCampaignAudience } from '../api/get-campaign-audience.ts';
import { useCancelCampaign, useSendCampaign, useSendCampaignTest } from '../api/run-campaign-action.ts';
import { getCampaign } from '../api/get-campaign.ts';
import { useCreateCampaign, useUpdateCampaign } from '../api/save-campaign.ts';
import { CampaignStatusBadge } from './campaign-status-badge.tsx';
import { DateField, DateTimeField } from '../../../components/ui/date-fields.tsx';

export type Option = { value: string; label: string };
/** A program to choose, with its tiers' names for the tier filter. */
export type ProgramOption = Option & { tiers?: string[] };
/** `focusRef` receives what moves the focus to the text (a refused send puts it there). */
export type RenderRichText = (props: { label: string; value: string; onChange: (html: string) => void; error?: string | undefined; focusRef?: Ref<{ focus(): void }> | undefined }) => ReactNode;

export const EMPTY_AUDIENCE: CampaignAudience = { programId: null, merchantId: null, tier: null, inactiveDays: null, birthdayMonth: null, joinedAfter: null };

type Draft = { name: string; subject: string; preheader: string; body: string; audience: CampaignAudience };

type Props = {
  campaign: Campaign | null;
  programOptions: ProgramOption[];
  merchantOptions: Option[];
  renderRichText: RenderRichText;
  onCreated: (campaign: Campaign) => void;
};

/** The report: what happened to each recipient. No opens or clicks: nothing tracks them, by design. */
export function CampaignReport({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('campaigns');
  const format = useFormatters();
  const figures = ['recipients', 'sent', 'queued', 'failed', 'skipped', 'unknown', 'unsubscribed'] as const;
  return (
    <Paper withBorder p="md" radius="md" aria-label={t('report.title')}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {t('report.title')}
        </Title>
        {campaign.status === 'sending' ? <Loader size="xs" aria-label={t('report.sending')} /> : null}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {figures.map((figure) => (
          <div key={figure}>
            <Text size="xs" c="dimmed">
              {t(`report.${figure}`)}
            </Text>
            <Text fw={600} data-testid={`count-${figure}`}>
              {format.number(campaign.counts[figure])}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="sm">
        {t('report.noTracking')}
      </Text>
    </Paper>
  );
}

function monthOptions(locale: string): Option[] {
  const format = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, index) => ({ value: String(index + 1), label: format.format(new Date(Date.UTC(2024, index, 1))) }));
}

/**
 * What is wrong with "Senza acquisti da (giorni)", in the words of every form (the contract's bounds).
 * A filter: what was typed stays, and this says why it is not applied; Mantine's clamp turned 5000
 * into 3650 on blur, and 0 into "no filter", without a word.
 */
function inactiveDaysProblem(days: number | null, label: string): string | undefined {
  if (days === null) return undefined;
  if (days < 1) return message('minValue', currentLanguage(), { field: label, min: 1 });
  if (days > CAMPAIGN_BOUNDS.inactiveDaysMax) return message('maxValue', currentLanguage(), { field: label, max: CAMPAIGN_BOUNDS.inactiveDaysMax });
  return undefined;
}

/** The audience's filters, the live count and five recipients. */
function AudienceFields({
  audience,
  onChange,
  programOptions,
  merchantOptions,
  isReadOnly,
  inactiveDaysRef,
}: {
  audience: CampaignAudience;
  onChange: (audience: CampaignAudience) => void;
  programOptions: ProgramOption[];
  merchantOptions: Option[];
  isReadOnly: boolean;
  /** The "inactive days" field, for a refused save to move the focus to it. */
  inactiveDaysRef?: Ref<HTMLInputElement> | undefined;
}) {
  const { t } = useTranslation('campaigns');
  const format = useFormatters();
  const [debounced] = useDebouncedValue(audience, 300);
  const inactiveDaysError = inactiveDaysProblem(audience.inactiveDays, t('audience.inactiveDays'));
  // Filters the API would refuse are not asked about: the count says nothing rather than an error.
  const isCountable = inactiveDaysError === undefined && inactiveDaysProblem(debounced.inactiveDays, '') === undefined;
  const query = useCampaignAudience(debounced, !isReadOnly && isCountable);
  const months = useMemo(() => monthOptions(format.locale), [format.locale]);
  const set = (patch: Partial<CampaignAudience>) => onChange({ ...audience, ...patch });
  // As Clienti's filter: the chosen program's tiers, or every program's when none is chosen.
  const tierOptions = useMemo(() => {
    const programs = programOptions.filter((program) => audience.programId === null || program.value === audience.programId);
    return [...new Set(programs.flatMap((program) => program.tiers ?? []))].sort((a, b) => a.localeCompare(b));
  }, [programOptions, audience.programId]);
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} size="h4" mb="xs">
        {t('audience.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Select label={t('audience.program')} placeholder={t('audience.any')} data={programOptions} value={audience.programId} onChange={(value) => set({ programId: value })} clearable searchable readOnly={isReadOnly} />
        <Select label={t('audience.merchant')} placeholder={t('audience.any')} data={merchantOptions} value={audience.merchantId} onChange={(value) => set({ merchantId: value })} clearable searchable readOnly={isReadOnly} />
        <Select label={t('audience.tier')} placeholder={t('audience.any')} data={tierOptions} value={audience.tier} onChange={(value) => set({ tier: value })} clearable searchable readOnly={isReadOnly} />
        <NumberInput
          ref={inactiveDaysRef}
          label={t('audience.inactiveDays')}
          placeholder={t('audience.any')}
          min={1}
          max={CAMPAIGN_BOUNDS.inactiveDaysMax}
          clampBehavior="none"
          allowDecimal={false}
          value={audience.inactiveDays ?? ''}
          onChange={(value) => set({ inactiveDays: typeof value === 'number' ? value : null })}
          error={inactiveDaysError}
          readOnly={isReadOnly}
        />
        <Select label={t('audience.birthdayMonth')} placeholder={t('audience.any')} data={months} value={audience.birthdayMonth === null ? null : String(audience.birthdayMonth)} onChange={(value) => set({ birthdayMonth: value ? Number(value) : null })} clearable readOnly={isReadOnly} />
        <DateField label={t('audience.joinedAfter')} value={audience.joinedAfter ?? ''} onChange={(day) => set({ joinedAfter: day || null })} readOnly={isReadOnly} clearable />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="xs">
        {t('audience.systemRules')}
      </Text>
      {isReadOnly ? null : (
        <Stack gap={4} mt="sm" aria-live="polite">
          <Group gap="xs">
            <Text fw={600}>{t('audience.count')}</Text>
            <Badge size="lg" variant="light" data-testid="audience-count">
              {!isCountable ? '—' : query.data ? format.number(query.data.count) : '…'}
            </Badge>
          </Group>
          {isCountable && query.data && query.data.sample.length > 0 ? (
            <>
              <Text size="sm" c="dimmed">
                {t('audience.sample')}
              </Text>
              <List size="sm" data-testid="audience-sample">
                {query.data.sample.map((person) => (
                  <List.Item key={person.id}>
                    {person.firstName} {person.lastName} · {person.email}
                  </List.Item>
                ))}
              </List>
            </>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}

type Values = Draft & {
  /** "Invia il": a time on the user's wall clock (`YYYY-MM-DD HH:mm:ss`), `''` for none. */
  scheduledAt: string;
};

const toRequest = (values: Draft) => ({ name: values.name.trim(), subject: values.subject.trim(), preheader: values.preheader.trim(), body: values.body, audience: values.audience });

/** The API's own rules for a draft ("Nome è obbligatorio"…), as every form of the app (form-resolver.ts). */
const loadSchema = async () => z.preprocess((value) => toRequest(value as Values), createCampaignSchema);

function toValues(campaign: Campaign | null): Values {
  return {
    name: campaign?.name ?? '',
    subject: campaign?.subject ?? '',
    preheader: campaign?.preheader ?? '',
    body: campaign?.body ?? '',
    audience: campaign?.audience ?? EMPTY_AUDIENCE,
    scheduledAt: '',
  };
}

/** A new or existing campaign: a draft is edited; a sent or sending one shows its report. */
export function CampaignEditor({ campaign, programOptions, merchantOptions, renderRichText, onCreated }: Props) {
  const { t } = useTranslation('campaigns');
  const format = useFormatters();
  // react-hook-form, as every form of the app: a refused save or send moves the focus (and so the
  // drawer's scroll) to the first field in error, rather than leaving its text out of sight at the top.
  const form = useForm<Values>({
    mode: 'onTouched',
    defaultValues: toValues(campaign),
    resolver: contractResolver<Values>(loadSchema),
  });
  useRevalidateOnLanguageChange(form);
  const { control, register, formState } = form;
  const { errors } = formState;
  const audience = useWatch({ control, name: 'audience' });
  const inactiveDaysRef = useRef<HTMLInputElement>(null);
  const scheduledAt = useWatch({ control, name: 'scheduledAt' });
  const queryClient = useQueryClient();
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  const conflict = useVersionConflict({ form, record: campaign, load: () => getCampaign(campaign?.id ?? ''), toValues });
  const send = useSendCampaign();
  const cancel = useCancelCampaign();
  const test = useSendCampaignTest();
  const isDraft = campaign === null || campaign.status === 'draft';
  const isBusy = create.isPending || update.isPending || send.isPending || test.isPending || cancel.isPending;

  /**
   * The contract's rules, then what sending needs besides: a text to read, and a send time still to
   * come. False, with the focus on the first field in error, when any fails.
   */
  const validate = async (options: { isSending?: boolean; localTime?: string | null } = {}): Promise<boolean> => {
    if (!(await form.trigger(['name', 'subject', 'preheader', 'body', 'audience'], { shouldFocus: true }))) {
      // react-hook-form keeps no error for the audience's filters (none is a form field of its own), so it
      // neither shows nor focuses one: the audience says its own, and takes the focus when no field before it does.
      const isAudienceAlone = (['name', 'subject', 'preheader', 'body'] as const).every((name) => !form.getFieldState(name).error);
      if (isAudienceAlone && inactiveDaysProblem(form.getValues('audience.inactiveDays'), '')) inactiveDaysRef.current?.focus();
      return false;
    }
    const values = form.getValues();
    // A draft may be saved without its text; it is sent only with something to read.
    if (options.isSending && isBlankBody(values.body)) {
      form.setError('body', { type: 'required', message: message('required', currentLanguage(), { field: 'body' }) }, { shouldFocus: true });
      return false;
    }
    // The API's rule: a time already gone is refused, in words, rather than moved to now unsaid.
    if (options.localTime && Date.parse(wallClockToInstant(options.localTime, format.timeZone)) <= Date.now()) {
      form.setError('scheduledAt', { type: 'future', message: errorText('send_time_past', currentLanguage(), { field: 'scheduledAt' }) }, { shouldFocus: true });
      return false;
    }
    return true;
  };

  /** Saves what is on screen; answers the stored campaign (null when the form is not valid). */
  const save = async (): Promise<Campaign | null> => {
    if (!(await validate())) return null;
    const body = toRequest(form.getValues());
    if (campaign === null) {
      const created = await create.mutateAsync(body);
      onCreated(created);
      return created;
    }
    return update.mutateAsync({ id: campaign.id, ...body, version: conflict.version ?? campaign.version });
  };

  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      // A version conflict is said above the form, with its reload; a field the API refused (a send time
      // that passed meanwhile) on the field; the API client has shown anything else.
      if (conflict.catchConflict(error)) return;
      if (hasFieldErrors(error)) applyServerFieldErrors(form, error.fields);
    }
  };

  /**
   * Sending cannot be called back: asked first, with how many it reaches now (a scheduled send counts
   * its recipients when it starts). Then saved and sent, as the buttons did at once before. `localTime`
   * is the field's "2026-12-20 10:00:00", a time on the user's clock (their profile's zone, not the browser's).
   */
  const confirmSend = (localTime: string | null) =>
    run(async () => {
      if (!(await validate({ isSending: true, localTime }))) return;
      const at = localTime ? wallClockToInstant(localTime, format.timeZone) : null;
      const values = form.getValues();
      const { count } = await queryClient.fetchQuery(campaignAudienceQuery(values.audience));
      const words = { name: values.name.trim(), count, formatted: format.number(count), at: at ? format.dateTime(at) : '' };
      modals.openConfirmModal({
        title: t(at ? 'confirmSchedule.title' : 'confirmSend.title'),
        children: <Text size="sm">{t(at ? 'confirmSchedule.text' : 'confirmSend.text', words)}</Text>,
        labels: { confirm: t(at ? 'confirmSchedule.confirm' : 'confirmSend.confirm'), cancel: t('confirmSend.back') },
        closeButtonProps: { 'aria-label': t('common:close') },
        onConfirm: () =>
          void run(async () => {
            const saved = await save();
            if (!saved) return;
            await send.mutateAsync(at ? { id: saved.id, scheduledAt: at } : { id: saved.id });
            notifySuccess(t(at ? 'scheduled' : 'sending'));
          }),
      });
    });

  return (
    <Stack>
      <VersionConflictNotice conflict={conflict.notice} />
      {campaign ? (
        <Group gap="xs">
          <CampaignStatusBadge status={campaign.status} />
          {campaign.scheduledAt ? <Text size="sm">{t('scheduledFor', { at: format.dateTime(campaign.scheduledAt) })}</Text> : null}
          {campaign.sentAt ? <Text size="sm">{t('sentAt', { at: format.dateTime(campaign.sentAt) })}</Text> : null}
        </Group>
      ) : null}
      {campaign && !isDraft ? <CampaignReport campaign={campaign} /> : null}
      <TextInput label={t('fields.name')} required maxLength={CAMPAIGN_BOUNDS.nameMax} {...register('name')} error={errors.name?.message} readOnly={!isDraft} />
      <TextInput
        label={t('fields.subject')}
        description={t('fields.subjectHint', { placeholder: '{{nome}}' })}
        required
        maxLength={CAMPAIGN_BOUNDS.subjectMax}
        {...register('subject')}
        error={errors.subject?.message}
        readOnly={!isDraft}
      />
      <TextInput label={t('fields.preheader')} description={t('fields.preheaderHint')} maxLength={CAMPAIGN_BOUNDS.preheaderMax} {...register('preheader')} error={errors.preheader?.message} readOnly={!isDraft} />
      {isDraft ? (
        <Controller
          control={control}
          name="body"
          render={({ field, fieldState }) => (
            <>
              {renderRichText({
                label: t('fields.body'),
                value: field.value,
                onChange: (body) => {
                  field.onChange(body);
                  // The text's "required" goes as soon as there is text.
                  if (fieldState.error && !isBlankBody(body)) form.clearErrors('body');
                },
                error: fieldState.error?.message,
                focusRef: field.ref,
              })}
            </>
          )}
        />
      ) : (
        <Paper withBorder p="md" radius="md">
          {/* Sanitised by the server against the news editor's allow-list. */}
          <div dangerouslySetInnerHTML={{ __html: campaign?.body ?? '' }} />
        </Paper>
      )}
      <AudienceFields
        audience={audience}
        onChange={(next) => form.setValue('audience', next, { shouldDirty: true })}
        programOptions={programOptions}
        merchantOptions={merchantOptions}
        isReadOnly={!isDraft}
        inactiveDaysRef={inactiveDaysRef}
      />
      {isDraft ? (
        <Alert color="gray" variant="light">
          {t('report.noTracking')}
        </Alert>
      ) : null}
      <Can permission="campaigns:write">
        {isDraft ? (
          <Stack gap="sm">
            <Group>
              <Button variant="default" loading={create.isPending || update.isPending} disabled={isBusy} onClick={() => void run(async () => (await save()) && notifySuccess(t('saved')))}>
                {t('actions.save')}
              </Button>
              <Button
                variant="light"
                loading={test.isPending}
                disabled={isBusy}
                onClick={() =>
                  run(async () => {
                    const saved = await save();
                    if (!saved) return;
                    const answer = await test.mutateAsync(saved.id);
                    notifySuccess(t('testSent', { to: answer.to }));
                  })
                }
              >
                {t('actions.test')}
              </Button>
              <Button loading={send.isPending} disabled={isBusy} onClick={() => void confirmSend(null)}>
                {t('actions.sendNow')}
              </Button>
            </Group>
            <Group align="end">
              <Controller
                control={control}
                name="scheduledAt"
                render={({ field, fieldState }) => (
                  <DateTimeField
                    label={t('fields.scheduledAt')}
                    description={t('fields.scheduledAtZone', { zone: format.timeZone })}
                    value={field.value}
                    onChange={(wallClock) => {
                      field.onChange(wallClock);
                      form.clearErrors('scheduledAt');
                    }}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                    minDate={nowAsWallClock(format.timeZone)}
                    focusRef={field.ref}
                  />
                )}
              />
              <Button variant="light" disabled={isBusy || scheduledAt === ''} onClick={() => void confirmSend(scheduledAt)}>
                {t('actions.schedule')}
              </Button>
            </Group>
          </Stack>
        ) : campaign && (campaign.status === 'sending' || campaign.status === 'scheduled') ? (
          <Group>
            <Button color="red" variant="light" loading={cancel.isPending} onClick={() => run(async () => cancel.mutateAsync(campaign.id))}>
              {t('actions.cancel')}
            </Button>
          </Group>
        ) : null}
      </Can>
    </Stack>
  );
}
