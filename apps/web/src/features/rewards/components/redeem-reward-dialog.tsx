import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { Program } from '@sf/contract/programs';
import type { RedemptionResult } from '@sf/contract/rewards';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/api-client.ts';
import { hasFieldErrors, isApiError } from '../../../lib/api-error.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useCustomerBalances } from '../api/get-customer-balances.ts';
import { useRewards } from '../api/get-rewards.ts';
import { useRedeemReward } from '../api/redeem-reward.ts';

export type RedeemCustomer = { id: string; label: string };

type Props = {
  isOpen: boolean;
  onClose: () => void;
  /** The customer, when the dialog opens from their page. */
  customer?: RedeemCustomer | null;
  /** The customer search, composed by the caller (the customers feature). */
  renderCustomerPicker: (props: { value: RedeemCustomer | null; onChange: (customer: RedeemCustomer | null) => void; error: string | undefined }) => ReactNode;
  /** The programs' circuits (their `merchantIds`), composed by the caller (the programs feature). */
  programs: Pick<Program, 'id' | 'merchantIds'>[];
  /** The merchants that can take part (active ones), composed by the caller (the merchants feature). */
  merchantOptions: { value: string; label: string }[];
};

const focusOnMount = (node: HTMLButtonElement | null) => node?.focus();

/** A fresh Idempotency-Key per confirmation, reused if that confirmation is retried. */
const newKey = () => `web-redeem-${crypto.randomUUID()}`;

function RedeemForm({ onClose, customer: preset, renderCustomerPicker, programs, merchantOptions }: Omit<Props, 'isOpen'>) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const [customer, setCustomer] = useState<RedeemCustomer | null>(preset ?? null);
  const [rewardId, setRewardId] = useState<string | null>(null);
  const [merchantId, setMerchantId] = useState<string | null>(null);
  const [merchantError, setMerchantError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<RedemptionResult | null>(null);
  const key = useRef<string | null>(null);
  const rewards = useRewards({ status: 'active', pageSize: '100', sort: 'name', order: 'asc' });
  const redeem = useRedeemReward();
  const balances = useCustomerBalances(customer?.id ?? null);
  const chosen = rewards.data?.items.find((reward) => reward.id === rewardId) ?? null;
  const circuitOf = (programId: string | undefined) => programs.find((program) => program.id === programId)?.merchantIds;
  // Where the reward is handed over is one of its program's merchants (the API refuses any other);
  // before a reward is chosen, or while the programs load, every active merchant (as in Registra acquisto).
  const circuit = circuitOf(chosen?.programId);
  const merchantChoices = circuit ? merchantOptions.filter((option) => circuit.includes(option.value)) : merchantOptions;
  // Out of reach is said as soon as the customer and the reward are chosen, not after "Riscatta".
  const reach = (() => {
    if (!chosen || !balances.data) return null;
    const membership = balances.data.items.find((item) => item.programId === chosen.programId);
    const balance = chosen.costUnit === 'stamps' ? (membership?.stamps ?? 0) : (membership?.balance ?? 0);
    const words = { balance: format.number(balance), unit: t(`units.${chosen.costUnit}`), cost: format.number(chosen.cost) };
    return { isEnough: balance >= chosen.cost, words };
  })();
  const options = (rewards.data?.items ?? []).map((reward) => ({
    value: reward.id,
    label: `${reward.name} · ${reward.programName} · ${t(`cost.${reward.costUnit}`, { count: reward.cost, value: format.number(reward.cost) })}`,
  }));

  if (done) {
    return (
      <Stack>
        <Alert color="green" title={t('redeem.doneTitle')}>
          <Text>{t('redeem.doneText')}</Text>
          <Text ff="monospace" fz="xl" fw={700} data-testid="voucher-code">
            {done.voucher.code}
          </Text>
          {done.voucher.validUntil ? <Text size="sm">{t('redeem.validUntil', { date: format.day(done.voucher.validUntil) })}</Text> : null}
        </Alert>
        <Group justify="flex-end">
          {/* The form that had the focus is gone: it moves here, so Enter closes once the code is handed over. */}
          <Button ref={focusOnMount} onClick={onClose}>
            {t('redeem.close')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!customer || !rewardId) return;
        setFailure(null);
        setMerchantError(null);
        key.current ??= newKey();
        redeem.mutate(
          // No merchant is a redemption at the platform's own desk: the field is left out, not sent empty.
          { customerId: customer.id, rewardId, ...(merchantId ? { merchantId } : {}), idempotencyKey: key.current },
          {
            // Said by the dialog itself, code and all (no toast as well: top right, it lay over "Fatto").
            onSuccess: (result) => setDone(result),
            onError: (error) => {
              // A merchant refused (suspended meanwhile, left the circuit) is said on its field.
              const onMerchant = hasFieldErrors(error) ? error.fields.find((item) => item.field === 'merchantId') : undefined;
              if (onMerchant) setMerchantError(onMerchant.message);
              // A refusal carries the API's own words (stamps or points, the figures); the rest a generic text.
              else setFailure(isApiError(error) && error.status >= 400 && error.status < 500 && error.message ? error.message : describeApiError(error));
              // A refusal from the API is final for this key (a new attempt is a new request). A lost answer
              // (no answer: status 0; a 5xx from the server or the balancer; the twin still in flight) may
              // hide a redemption that did happen: the same key is sent again, so it counts once.
              const isLost = !isApiError(error) || error.status === 0 || error.status >= 500 || error.code === 'idempotency_key_in_flight';
              if (!isLost) key.current = null;
            },
          },
        );
      }}
    >
      <Stack>
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        {/* From a customer's page the customer is given, as in the ledger's dialogs: said, not asked. */}
        {preset ? (
          <Text>
            {t('redeem.customer')}: <strong>{preset.label}</strong>
          </Text>
        ) : (
          renderCustomerPicker({ value: customer, onChange: setCustomer, error: undefined })
        )}
        <Select
          label={t('redeem.reward')}
          // The first field to fill: the customer (their picker takes the focus) or, when given, the reward.
          data-autofocus={preset ? true : undefined}
          data={options}
          value={rewardId}
          onChange={(next) => {
            setRewardId(next);
            // A merchant outside the new reward's circuit is no longer a choice: not kept out of sight.
            const nextCircuit = circuitOf(rewards.data?.items.find((reward) => reward.id === next)?.programId);
            if (merchantId && nextCircuit && !nextCircuit.includes(merchantId)) {
              setMerchantId(null);
              setMerchantError(null);
            }
          }}
          searchable
          required
          nothingFoundMessage={t('redeem.noRewards')}
          description={reach?.isEnough ? t('redeem.balance', reach.words) : undefined}
          error={reach && !reach.isEnough ? t('redeem.notEnough', reach.words) : undefined}
        />
        {/* Optional, like the API: a redemption at the platform's own desk has no merchant. */}
        <Select
          label={t('redeem.merchant')}
          data={merchantChoices}
          value={merchantId}
          onChange={(next) => {
            setMerchantId(next);
            setMerchantError(null);
          }}
          searchable
          clearable
          error={merchantError ?? undefined}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('redeem.cancel')}
          </Button>
          <Button type="submit" loading={redeem.isPending} disabled={!customer || !rewardId || reach?.isEnough === false}>
            {t('redeem.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Riscatta un premio": the reward's cost from the customer's balance, and the voucher's code. */
export function RedeemRewardDialog({ isOpen, ...props }: Props) {
  const { t } = useTranslation('rewards');
  return (
    <Modal opened={isOpen} onClose={props.onClose} title={t('redeem.title')} size="lg" closeButtonProps={{ 'aria-label': t('common:close') }}>
      {isOpen ? <RedeemForm {...props} /> : null}
    </Modal>
  );
}
