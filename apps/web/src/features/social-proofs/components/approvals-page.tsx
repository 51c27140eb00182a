import { Anchor, Badge, Button, Group, Image, Modal, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { ERASURE_DECIDER, PROOF_BOUNDS, PROOF_KINDS, PROOF_STATUSES, listSocialProofsQuerySchema, type ProofStatus, type SocialProof } from '@sf/contract/social-proofs';
import { useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { describeApiError } from '../../../lib/api-client.ts';
import { useFormatters } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { SOCIAL_PROOFS_PATH, useDecideSocialProofs, useSocialProofs } from '../api/social-proofs.ts';

type SortField = ListParams<typeof listSocialProofsQuerySchema>['sort'];
type Option = { value: string; label: string };

const STATUS_COLORS: Record<ProofStatus, string> = { pending: 'yellow', approved: 'green', rejected: 'red' };

/**
 * Whom the proof is from, as the screen names them: an erased customer has no name left (the erasure
 * blanked it and closed their pending proofs), so the row says so with the new card number, never a blank.
 */
function proofCustomerName(proof: Pick<SocialProof, 'customerName' | 'customerStatus' | 'cardNumber'>, t: TFunction): string {
  const name = proof.customerName.trim();
  if (proof.customerStatus === 'erased' || name === '') return t('approvals:erasedCustomer', { card: proof.cardNumber });
  return name;
}

/** The link (opened apart, without our page as opener) and/or the screenshot's thumbnail. */
function Evidence({ proof }: { proof: SocialProof }) {
  const { t } = useTranslation('approvals');
  return (
    <Group gap="xs" wrap="nowrap">
      {proof.imageUrl ? (
        <Anchor href={proof.imageUrl} target="_blank" rel="noopener noreferrer">
          <Image src={proof.imageUrl} alt={t('screenshotOf', { name: proofCustomerName(proof, t) })} w={48} h={48} fit="cover" radius="sm" />
        </Anchor>
      ) : null}
      {proof.url ? (
        // The site on one line ("www.instagram.co / m" was broken anywhere), the whole link on hover.
        <Anchor href={proof.url} target="_blank" rel="noopener noreferrer nofollow" size="sm" title={proof.url} style={{ whiteSpace: 'nowrap' }}>
          {new URL(proof.url).hostname.replace(/^www\./, '')}
        </Anchor>
      ) : null}
    </Group>
  );
}

/**
 * Who decided a proof: the staff member by name (e-mail and time on hover), an erasure's closure in
 * words; nothing while it is pending.
 */
function DecidedBy({ proof }: { proof: SocialProof }) {
  const { t } = useTranslation('approvals');
  const format = useFormatters();
  if (proof.decidedBy === null) return null;
  const isErasure = proof.decidedBy === ERASURE_DECIDER;
  const at = proof.decidedAt ? format.dateTime(proof.decidedAt) : '';
  return (
    <Text size="xs" c="dimmed" title={isErasure ? at : [proof.decidedBy, at].filter(Boolean).join(' · ')}>
      {isErasure ? t('decidedByErasure') : t('decidedBy', { name: proof.decidedByName ?? proof.decidedBy })}
    </Text>
  );
}

/** `/approvals` — Apps → Approvazioni: the queue (pending first), filters, bulk approve/reject, export. */
export function ApprovalsPage({ programOptions, merchantOptions, customerHref }: { programOptions: Option[]; merchantOptions: Option[]; customerHref: (id: string) => string }) {
  const { t } = useTranslation('approvals');
  const format = useFormatters();
  const list = useList(listSocialProofsQuerySchema, useSocialProofs);
  const decide = useDecideSocialProofs();
  const [rejecting, setRejecting] = useState<{ ids: number[]; clear: () => void } | null>(null);
  const [reason, setReason] = useState('');
  // A reason is written for the proofs it rejects (their customers read it): a cancelled one is not kept for the next.
  const closeRejecting = () => {
    setRejecting(null);
    setReason('');
  };

  const run = (ids: number[], decision: 'approve' | 'reject', clear: () => void, why?: string) =>
    decide.mutate(
      { ids, decision, ...(why ? { reason: why } : {}) },
      {
        onSuccess: (result) => {
          const decided = result.items.filter((item) => item.outcome === 'decided').length;
          const failed = result.items.filter((item) => item.outcome === 'failed');
          // Nothing decided is no success: a green "0 azioni approvate" stood beside the red refusal. The
          // refusals below then say what happened.
          if (decided > 0) notifySuccess(t(decision === 'approve' ? 'approvedToast' : 'rejectedToast', { count: decided }));
          // Each failure named as its row is (the proofs' ids are shown nowhere).
          const shown = list.query.data?.items ?? [];
          for (const item of failed) {
            const failedProof = shown.find((candidate) => candidate.id === item.id);
            const label = failedProof ? t('rowLabel', { name: proofCustomerName(failedProof, t), kind: t(`kind.${failedProof.kind}`) }) : `#${item.id}`;
            notifyError(`${label}: ${item.message ?? ''}`);
          }
          clear();
          closeRejecting();
        },
        onError: (error) => notifyError(describeApiError(error)),
      },
    );

  /**
   * Approving awards each proof's bonus at once. Several proofs (select-all is one click) are asked
   * first, naming whom the points go to; one proof is one click, as its row's checkbox already named it
   * and Movimenti can reverse its entry.
   */
  const approve = (ids: number[], clear: () => void) => {
    if (ids.length === 1) {
      run(ids, 'approve', clear);
      return;
    }
    const customers = new Map((list.query.data?.items ?? []).filter((proof) => ids.includes(proof.id)).map((proof) => [proof.customerId, proofCustomerName(proof, t)]));
    modals.openConfirmModal({
      title: t('approveConfirm.title', { count: ids.length }),
      children: <Text size="sm">{t('approveConfirm.text', { count: customers.size, name: [...customers.values()][0] ?? '', proofs: ids.length })}</Text>,
      labels: { confirm: t('approveConfirm.confirm'), cancel: t('approveConfirm.back') },
      closeButtonProps: { 'aria-label': t('common:close') },
      onConfirm: () => run(ids, 'approve', clear),
    });
  };

  const columns = useMemo<DataTableColumn<SocialProof, SortField>[]>(
    () => [
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', cell: (proof) => format.dateTime(proof.createdAt) },
      {
        id: 'customer',
        isName: true,
        header: t('columns.customer'),
        cell: (proof) => (
          <Anchor component={Link} to={customerHref(proof.customerId)} inherit>
            {proofCustomerName(proof, t)}
          </Anchor>
        ),
      },
      // Names: the column keeps room for whole words (on a phone it was squeezed to one word a line).
      { id: 'program', header: t('columns.program'), isName: true, cell: (proof) => (proof.merchantName ? `${proof.programName} · ${proof.merchantName}` : proof.programName) },
      { id: 'kind', header: t('columns.kind'), sortField: 'kind', firstOrder: 'asc', cell: (proof) => t(`kind.${proof.kind}`) },
      { id: 'evidence', header: t('columns.evidence'), cell: (proof) => <Evidence proof={proof} /> },
      {
        id: 'status',
        header: t('columns.status'),
        sortField: 'status',
        firstOrder: 'asc',
        cell: (proof) => (
          <Badge color={STATUS_COLORS[proof.status]} variant="light">
            {t(`status.${proof.status}`)}
          </Badge>
        ),
      },
      {
        id: 'outcome',
        header: t('columns.outcome'),
        cell: (proof) => (
          <Stack gap={0}>
            {proof.points !== null ? <Text size="sm">{t('points', { count: proof.points, value: format.number(proof.points) })}</Text> : null}
            {proof.reason ? (
              <Text size="xs" c="dimmed">
                {proof.reason}
              </Text>
            ) : null}
            <DecidedBy proof={proof} />
          </Stack>
        ),
      },
    ],
    [t, format, customerHref],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={SOCIAL_PROOFS_PATH}
      filters={[
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.all'), options: PROOF_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 150 },
        { type: 'select', field: 'kind', label: t('filters.kind'), allLabel: t('filters.all'), options: PROOF_KINDS.map((value) => ({ value, label: t(`kind.${value}`) })), width: 150 },
        { type: 'select', field: 'programId', label: t('filters.program'), allLabel: t('filters.all'), options: programOptions, width: 200 },
        { type: 'select', field: 'merchantId', label: t('filters.merchant'), allLabel: t('filters.all'), options: merchantOptions, width: 200 },
        { type: 'period', from: 'from', to: 'to', labels: { from: t('filters.from'), to: t('filters.to') }, width: 160 },
      ]}
      columns={columns}
      getRowId={(proof) => String(proof.id)}
      selection={{
        getRowLabel: (proof) => t('rowLabel', { name: proofCustomerName(proof, t), kind: t(`kind.${proof.kind}`) }),
        actions: (selectedIds, clear) => (
          <Group gap="xs">
            <Button size="sm" loading={decide.isPending} onClick={() => approve(selectedIds.map(Number), clear)}>
              {t('approve', { count: selectedIds.length })}
            </Button>
            <Button size="sm" color="red" variant="light" onClick={() => setRejecting({ ids: selectedIds.map(Number), clear })}>
              {t('reject', { count: selectedIds.length })}
            </Button>
          </Group>
        ),
      }}
    >
      <Modal opened={rejecting !== null} onClose={closeRejecting} title={t('rejectTitle', { count: rejecting?.ids.length ?? 0 })} closeButtonProps={{ 'aria-label': t('common:close') }}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (rejecting && reason.trim()) run(rejecting.ids, 'reject', rejecting.clear, reason.trim());
          }}
        >
          <Stack>
            <Textarea label={t('reason')} value={reason} onChange={(event) => setReason(event.currentTarget.value)} required maxLength={PROOF_BOUNDS.reasonMax} autosize minRows={2} data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={closeRejecting}>
                {t('cancel')}
              </Button>
              <Button type="submit" color="red" disabled={!reason.trim()} loading={decide.isPending}>
                {t('confirmReject')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </ListPage>
  );
}
