import { Alert, Anchor, Button, Drawer, Group, List, Modal, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import type { PrivacyActionInput, PrivacyRequest } from '@sf/contract/privacy';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { saveDownload } from '../../../components/ui/export-button.tsx';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { useFormatters } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { usePrivacyRequest } from '../api/get-privacy-request.ts';
import { useRunPrivacyAction } from '../api/run-privacy-action.ts';
import { useUpdatePrivacyRequest } from '../api/update-privacy-request.ts';
import { customerLabel, DaysLeft, PrivacyStatusBadge } from './privacy-badges.tsx';

type Props = {
  id: string | null;
  onClose: () => void;
  customerHref: (id: string) => string;
  renderCustomerFigures?: (customerId: string) => ReactNode;
};

type Ask = { action: PrivacyActionInput['action'] | 'extend'; isRejected?: boolean; needsReason: boolean; isDanger: boolean } | null;

/** One request: its facts, what was done, and the actions its kind allows (each confirmed). */
export function PrivacyRequestDrawer({ id, onClose, customerHref, renderCustomerFigures }: Props) {
  const { t } = useTranslation('privacy');
  const format = useFormatters();
  const query = usePrivacyRequest(id);
  const run = useRunPrivacyAction();
  const update = useUpdatePrivacyRequest();
  const [ask, setAsk] = useState<Ask>(null);
  const [reason, setReason] = useState('');
  const request = query.data;
  const isPending = request ? request.status === 'open' || request.status === 'in_progress' : false;
  const isErased = request?.customerStatus === 'erased';

  const perform = async (request: PrivacyRequest, chosen: NonNullable<Ask>) => {
    try {
      if (chosen.action === 'extend') {
        await update.mutateAsync({ id: request.id, extensionReason: reason.trim(), version: request.version });
        notifySuccess(t('done.extend'));
      } else {
        const result = await run.mutateAsync({
          id: request.id,
          action: chosen.action,
          version: request.version,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
          ...(chosen.isRejected ? { isRejected: true } : {}),
        });
        if (result.export) {
          const blob = new Blob([JSON.stringify(result.export, null, 2)], { type: 'application/json' });
          saveDownload({ blob, filename: `dati-personali-${request.customerCardNumber}.json` });
        }
        notifySuccess(t(`done.${chosen.action}`));
      }
      setAsk(null);
      setReason('');
    } catch {
      // The client showed the reason.
    }
  };

  const askFor = (next: NonNullable<Ask>) => {
    setReason('');
    setAsk(next);
  };

  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="lg" closeButtonProps={{ 'aria-label': t('common:close') }} title={t('drawer.title')}>
      {isBlockingFailure(query) ? (
        <FailureAlert error={query.error} missing={{ title: t('drawer.notFound.title'), text: t('drawer.notFound.text') }} />
      ) : !request ? (
        <Skeleton h={240} />
      ) : (
        <Stack>
          {/* A failed refetch (after an action) keeps the request on screen, and says it may be behind. */}
          <StaleDataNotice query={query} />
          <Group justify="space-between">
            <Text fw={700} size="lg">
              {t(`kind.${request.kind}`)}
            </Text>
            <PrivacyStatusBadge status={request.status} />
          </Group>
          <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.35rem 1rem', margin: 0 }}>
            <dt>{t('columns.customer')}</dt>
            <dd style={{ margin: 0 }}>
              <Anchor component={Link} to={customerHref(request.customerId)}>
                {customerLabel(request, t('erasedCustomer'))}
              </Anchor>
            </dd>
            <dt>{t('columns.receivedAt')}</dt>
            <dd style={{ margin: 0 }}>{format.date(request.receivedAt)}</dd>
            <dt>{t('columns.dueAt')}</dt>
            <dd style={{ margin: 0 }}>{format.date(request.dueAt)}</dd>
            <dt>{t('columns.daysLeft')}</dt>
            <dd style={{ margin: 0 }}>
              <DaysLeft request={request} />
            </dd>
            {request.extensionReason ? (
              <>
                <dt>{t('drawer.extension')}</dt>
                <dd style={{ margin: 0 }}>{request.extensionReason}</dd>
              </>
            ) : null}
            <dt>{t('columns.handledBy')}</dt>
            <dd style={{ margin: 0 }} title={request.handledByEmail ?? undefined}>
              {request.handledByEmail ? `${request.handledByName ?? request.handledByEmail} · ${format.dateTime(request.handledAt ?? '')}` : '—'}
            </dd>
            {request.notes ? (
              <>
                <dt>{t('form.notes')}</dt>
                <dd style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{request.notes}</dd>
              </>
            ) : null}
          </dl>
          {isErased ? <Alert color="gray" title={t('drawer.erasedTitle')}>{t('drawer.erasedText')}</Alert> : null}
          {request.isProcessingBlocked ? <Alert color="orange" title={t('drawer.blockedTitle')}>{t('drawer.blockedText')}</Alert> : null}
          {renderCustomerFigures ? renderCustomerFigures(request.customerId) : null}
          <Text size="sm" c="dimmed">
            {t(`help.${request.kind}`)}
          </Text>
          {/* An erased person's requests are closed by the erasure and the API refuses any action on them (409 customer_erased). */}
          {isErased ? null : isPending ? (
            <Can permission="privacy:write">
              <Group gap="sm">
                {(request.kind === 'access' || request.kind === 'portability') && !isErased ? (
                  <Button loading={run.isPending} onClick={() => void perform(request, { action: 'export', needsReason: false, isDanger: false })}>
                    {t('actions.export')}
                  </Button>
                ) : null}
                {request.kind === 'rectification' && !isErased ? (
                  <Button component={Link} to={`${customerHref(request.customerId)}?edit=1`} variant="light">
                    {t('actions.rectify')}
                  </Button>
                ) : null}
                {/* White on red 6 is 3.8:1; on red 9, 5.4:1 (WCAG AA asks 4.5:1). */}
                {request.kind === 'erasure' && !isErased ? (
                  <Button color="red.9" onClick={() => askFor({ action: 'erase', needsReason: false, isDanger: true })}>
                    {t('actions.erase')}
                  </Button>
                ) : null}
                {(request.kind === 'restriction' || request.kind === 'objection') && !request.isProcessingBlocked && !isErased ? (
                  <Button color="orange" onClick={() => askFor({ action: 'restrict', needsReason: false, isDanger: false })}>
                    {t('actions.restrict')}
                  </Button>
                ) : null}
                {request.isProcessingBlocked ? (
                  <Button variant="light" onClick={() => askFor({ action: 'lift', needsReason: true, isDanger: false })}>
                    {t('actions.lift')}
                  </Button>
                ) : null}
                {!request.extendedAt ? (
                  <Button variant="default" onClick={() => askFor({ action: 'extend', needsReason: true, isDanger: false })}>
                    {t('actions.extend')}
                  </Button>
                ) : null}
                <Button variant="default" onClick={() => askFor({ action: 'close', needsReason: false, isDanger: false })}>
                  {t('actions.close')}
                </Button>
                <Button variant="subtle" color="red" onClick={() => askFor({ action: 'close', isRejected: true, needsReason: true, isDanger: true })}>
                  {t('actions.reject')}
                </Button>
              </Group>
            </Can>
          ) : request.status === 'done' && request.isProcessingBlocked ? (
            <Can permission="privacy:write">
              <Button variant="light" onClick={() => askFor({ action: 'lift', needsReason: true, isDanger: false })}>
                {t('actions.lift')}
              </Button>
            </Can>
          ) : null}
          {request.outcome.length > 0 ? (
            <Stack gap={4}>
              <Title order={3} size="h5">
                {t('drawer.history')}
              </Title>
              <List size="sm">
                {request.outcome.map((item, index) => (
                  <List.Item key={index}>
                    {format.dateTime(String(item['at'] ?? ''))} · {t(`outcome.${String(item['action'])}`, { defaultValue: String(item['action']) })}
                    {item['by'] ? ` · ${String(item['by'])}` : ''}
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
        </Stack>
      )}
      <Modal opened={ask !== null} onClose={() => setAsk(null)} closeButtonProps={{ 'aria-label': t('common:close') }} title={ask ? t(`confirm.${ask.isRejected ? 'reject' : ask.action}.title`) : ''} centered>
        {ask && request ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void perform(request, ask);
            }}
          >
            <Stack>
              <Text>{t(`confirm.${ask.isRejected ? 'reject' : ask.action}.text`)}</Text>
              {ask.needsReason ? (
                <Textarea label={t('confirm.reason')} required minLength={3} value={reason} onChange={(event) => setReason(event.currentTarget.value)} autosize minRows={2} data-autofocus />
              ) : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setAsk(null)}>
                  {t('form.cancel')}
                </Button>
                <Button type="submit" color={ask.isDanger ? 'red.9' : undefined} loading={run.isPending || update.isPending} disabled={ask.needsReason && reason.trim().length < 3}>
                  {t(`confirm.${ask.isRejected ? 'reject' : ask.action}.confirm`)}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
    </Drawer>
  );
}
