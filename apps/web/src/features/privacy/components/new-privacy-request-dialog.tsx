import { Button, Group, Modal, Select, Stack, Textarea } from '@mantine/core';
import { PRIVACY_REQUEST_KINDS, type PrivacyRequest, type PrivacyRequestKind } from '@sf/contract/privacy';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { dayOfInstant, wallClockToInstant } from '../../../lib/time-zone.ts';
import { useCreatePrivacyRequest } from '../api/create-privacy-request.ts';
import { DateField } from '../../../components/ui/date-fields.tsx';

export type PickedCustomer = { id: string; label: string };
export type RenderCustomerPicker = (props: { value: PickedCustomer | null; onChange: (customer: PickedCustomer | null) => void; error: string | undefined }) => ReactNode;

type Props = {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (request: PrivacyRequest) => void;
  /** The customer search (the customers feature's, composed by the route). */
  renderCustomerPicker: RenderCustomerPicker;
};

/** The form's state lives while the dialog is open: a request cancelled (or closed by Back) leaves nothing for the next. */
function NewRequestForm({ onClose, onCreated, renderCustomerPicker }: Omit<Props, 'isOpen'>) {
  const { t } = useTranslation('privacy');
  const create = useCreatePrivacyRequest();
  const [kind, setKind] = useState<PrivacyRequestKind>('access');
  const [customer, setCustomer] = useState<PickedCustomer | null>(null);
  const [receivedOn, setReceivedOn] = useState('');
  const [notes, setNotes] = useState('');
  const [customerError, setCustomerError] = useState<string | undefined>();
  // Today in the user's zone, as the calendar and the list show days.
  const { timeZone } = useFormatters();
  const today = dayOfInstant(new Date().toISOString(), timeZone);
  // A day to come stays as typed and is refused by name (the calendar offers none): the field used to
  // drop it without a word, and the request went in as received today.
  const receivedOnError = receivedOn > today ? t('form.receivedOnFuture', { field: t('form.receivedOn') }) : undefined;
  const receivedOnRef = useRef<{ focus(): void }>(null);

  const submit = async () => {
    // Every problem at once: the customer missing and the day to come.
    if (!customer) setCustomerError(t('form.customerRequired'));
    if (receivedOnError) receivedOnRef.current?.focus();
    if (!customer || receivedOnError) return;
    try {
      const request = await create.mutateAsync({
        kind,
        customerId: customer.id,
        // A past day at noon in the user's zone (the same business day wherever the browser is); today is
        // now, left to the server: noon may not have come yet, and a time to come is refused.
        ...(receivedOn && receivedOn !== today ? { receivedAt: wallClockToInstant(`${receivedOn} 12:00:00`, timeZone) } : {}),
        ...(notes.trim() ? { notes: notes.trim() } : {}),
      });
      notifySuccess(t('form.created'));
      onCreated(request);
    } catch {
      // The client showed the reason.
    }
  };

  return (
    // noValidate: the customer's picker is marked required, and the browser's own bubble ("Please fill out
    // this field", in the browser's language) stood in front of the form's message in the operator's.
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack>
        <Select
          label={t('form.kind')}
          required
          data={PRIVACY_REQUEST_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))}
          value={kind}
          onChange={(value) => value && setKind(value as PrivacyRequestKind)}
          allowDeselect={false}
        />
        {renderCustomerPicker({
          value: customer,
          onChange: (value) => {
            setCustomer(value);
            setCustomerError(undefined);
          },
          error: customerError,
        })}
        <DateField label={t('form.receivedOn')} description={t('form.receivedOnHelp')} value={receivedOn} onChange={setReceivedOn} maxDate={today} error={receivedOnError} focusRef={receivedOnRef} clearable />
        <Textarea label={t('form.notes')} value={notes} onChange={(event) => setNotes(event.currentTarget.value)} maxLength={2000} autosize minRows={2} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Records a request received from a customer; the due date follows (one month). */
export function NewPrivacyRequestDialog({ isOpen, ...props }: Props) {
  const { t } = useTranslation('privacy');
  return (
    <Modal opened={isOpen} onClose={props.onClose} title={t('form.title')} size="lg" closeButtonProps={{ 'aria-label': t('common:close') }}>
      {isOpen ? <NewRequestForm {...props} /> : null}
    </Modal>
  );
}
