import { Button, Group, Paper, SegmentedControl, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { SERVICE_EMAIL_KINDS, SERVICE_EMAIL_PLACEHOLDERS, updateServiceEmailSchema, type ServiceEmailKind, type ServiceEmailPreview, type ServiceEmailSetting } from '@sf/contract/service-emails';
import { useEffect, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { useAskDiscard, useReportUnsavedChanges } from '../../../components/ui/unsaved-changes.tsx';
import { VersionConflictNotice, useVersionConflict } from '../../../components/ui/version-conflict.tsx';
import { hasFieldErrors } from '../../../lib/api-error.ts';
import { applyServerFieldErrors, contractResolver, useRevalidateOnLanguageChange } from '../../../lib/form-resolver.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { getServiceEmail, usePreviewServiceEmail, useSaveServiceEmail, useServiceEmails } from '../api/service-emails.ts';

/** A customer picker, given by the app (features do not import each other). */
export type PickedCustomer = { id: string; label: string };
export type RenderCustomerPicker = (props: { label: string; value: PickedCustomer | null; onChange: (customer: PickedCustomer | null) => void }) => ReactNode;

type Values = { isEnabled: boolean; subjectIt: string; bodyIt: string; subjectEn: string; bodyEn: string };

/**
 * The API's own rules for the texts, placeholders included, checked before sending: the API's 400
 * named an unknown placeholder only once the other fields passed, so the English text's came a save
 * later than a blank subject's. The version is the editor's, not a field.
 */
const loadSchema = async () => updateServiceEmailSchema.omit({ version: true });

const toValues = (setting: ServiceEmailSetting): Values => ({
  isEnabled: setting.isEnabled,
  subjectIt: setting.subjectIt,
  bodyIt: setting.bodyIt,
  subjectEn: setting.subjectEn,
  bodyEn: setting.bodyEn,
});

function KindEditor({
  programId,
  setting,
  renderCustomerPicker,
  onDirtyChange,
}: {
  programId: string;
  setting: ServiceEmailSetting;
  renderCustomerPicker: RenderCustomerPicker;
  onDirtyChange: (isDirty: boolean) => void;
}) {
  const { t } = useTranslation('programs');
  const save = useSaveServiceEmail(programId);
  const preview = usePreviewServiceEmail(programId);
  const [failure, setFailure] = useState<unknown>(null);
  const [customer, setCustomer] = useState<PickedCustomer | null>(null);
  const [language, setLanguage] = useState<'it' | 'en'>('it');
  const [shown, setShown] = useState<ServiceEmailPreview | null>(null);
  const form = useForm<Values>({
    mode: 'onTouched',
    defaultValues: toValues(setting),
    resolver: contractResolver<Values>(loadSchema),
  });
  useRevalidateOnLanguageChange(form);
  const conflict = useVersionConflict({ form, record: setting, load: () => getServiceEmail(programId, setting.kind), toValues });
  const { errors, isDirty } = form.formState;
  // The drawer asks before Esc or Back throws these edits away; the kind switch above asks too.
  useReportUnsavedChanges(isDirty, { name: `serviceEmail:${setting.kind}`, form });
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await save.mutateAsync({ kind: setting.kind, ...values, version: conflict.version ?? setting.version });
      notifySuccess(t('serviceEmails.saved'));
    } catch (error) {
      if (conflict.catchConflict(error)) return;
      if (hasFieldErrors(error) && applyServerFieldErrors(form, error.fields)) return;
      setFailure(error);
    }
  });

  const showPreview = async () => {
    if (!customer) return;
    setFailure(null);
    const values = form.getValues();
    try {
      setShown(
        await preview.mutateAsync({
          kind: setting.kind,
          customerId: customer.id,
          language,
          subject: language === 'it' ? values.subjectIt : values.subjectEn,
          body: language === 'it' ? values.bodyIt : values.bodyEn,
        }),
      );
    } catch (error) {
      if (hasFieldErrors(error) && applyServerFieldErrors(form, error.fields)) return;
      setFailure(error);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="sm">
        <VersionConflictNotice conflict={conflict.notice} />
        <Controller
          control={form.control}
          name="isEnabled"
          render={({ field }) => <Switch ref={field.ref} label={t('serviceEmails.enabled')} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} onBlur={field.onBlur} />}
        />
        <TextInput label={t('serviceEmails.subjectIt')} required {...form.register('subjectIt')} error={errors.subjectIt?.message} />
        <Textarea label={t('serviceEmails.bodyIt')} required autosize minRows={4} maxRows={12} {...form.register('bodyIt')} error={errors.bodyIt?.message} />
        <TextInput label={t('serviceEmails.subjectEn')} required {...form.register('subjectEn')} error={errors.subjectEn?.message} />
        <Textarea label={t('serviceEmails.bodyEn')} required autosize minRows={4} maxRows={12} {...form.register('bodyEn')} error={errors.bodyEn?.message} />
        <Text size="xs" c="dimmed">
          {t('serviceEmails.placeholders', { list: SERVICE_EMAIL_PLACEHOLDERS.map((name) => `{{${name}}}`).join(' ') })}
        </Text>
        {failure ? (
          <FailureAlert error={failure} />
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('serviceEmails.save')}
          </Button>
        </Group>
        <Title order={4} size="h6">
          {t('serviceEmails.previewTitle')}
        </Title>
        <Group align="flex-end" wrap="wrap">
          <div style={{ minWidth: 280, flex: 1 }}>{renderCustomerPicker({ label: t('serviceEmails.previewCustomer'), value: customer, onChange: setCustomer })}</div>
          <SegmentedControl
            aria-label={t('serviceEmails.previewLanguage')}
            value={language}
            onChange={(value) => setLanguage(value as 'it' | 'en')}
            data={[
              { value: 'it', label: t('serviceEmails.italian') },
              { value: 'en', label: t('serviceEmails.english') },
            ]}
          />
          <Button variant="light" onClick={() => void showPreview()} disabled={!customer} loading={preview.isPending}>
            {t('serviceEmails.preview')}
          </Button>
        </Group>
        {shown ? (
          <Paper withBorder p="sm" radius="md" aria-label={t('serviceEmails.previewTitle')}>
            <Text fw={600} mb="xs">
              {shown.subject}
            </Text>
            <iframe title={t('serviceEmails.previewFrame')} srcDoc={shown.html} sandbox="" style={{ width: '100%', height: 420, border: 0 }} />
          </Paper>
        ) : null}
      </Stack>
    </form>
  );
}

/** "Messaggi automatici": the program's four service e-mails, each on or off, its texts, and a preview with a real customer. */
export function ProgramServiceEmails({ programId, renderCustomerPicker }: { programId: string; renderCustomerPicker: RenderCustomerPicker }) {
  const { t } = useTranslation('programs');
  const query = useServiceEmails(programId);
  const [kind, setKind] = useState<ServiceEmailKind>('welcome');
  const [isEditorDirty, setIsEditorDirty] = useState(false);
  const askDiscard = useAskDiscard();
  // Another kind replaces the editor: its unsaved texts would go without a word.
  const chooseKind = async (next: ServiceEmailKind) => {
    if (next === kind || (isEditorDirty && !(await askDiscard()))) return;
    setIsEditorDirty(false);
    setKind(next);
  };
  const setting = query.data?.items.find((item) => item.kind === kind);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('serviceEmails.hint')}
      </Text>
      <SegmentedControl
        aria-label={t('serviceEmails.kindLabel')}
        value={kind}
        onChange={(value) => void chooseKind(value as ServiceEmailKind)}
        data={SERVICE_EMAIL_KINDS.map((value) => ({ value, label: t(`serviceEmails.kind.${value}`) }))}
        fullWidth
      />
      {/* Only a read with nothing to show stands in for the editor; a failed refetch keeps what was typed. */}
      {isBlockingFailure(query) ? <FailureAlert error={query.error} /> : <StaleDataNotice query={query} />}
      {setting ? <KindEditor key={`${setting.kind}-${setting.version}`} programId={programId} setting={setting} renderCustomerPicker={renderCustomerPicker} onDirtyChange={setIsEditorDirty} /> : null}
    </Stack>
  );
}
