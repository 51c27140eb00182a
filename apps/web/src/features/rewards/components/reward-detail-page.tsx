import { Alert, Anchor, Button, Card, FileInput, Group, Image, List, Loader, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { VOUCHER_STATUSES, generateVouchersSchema, listVouchersQuerySchema, type Reward, type Voucher, type VoucherBatchResult } from '@sf/contract/rewards';
import { issueMessage } from '@sf/contract/validation';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListTable, ListToolbar } from '../../../components/ui/list-page.tsx';
import { RecordNotFound } from '../../../components/ui/record-not-found.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { describeApiError } from '../../../lib/api-client.ts';
import { hasFieldErrors, isMissingRecord } from '../../../lib/api-error.ts';
import { useFormatters } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useReward } from '../api/get-rewards.ts';
import { useCreateVouchers, useUseVoucher, useVoidVoucher, useVouchers, vouchersPath } from '../api/vouchers.ts';
import { RewardFormDrawer } from './reward-form-drawer.tsx';
import { VoucherCounts } from './voucher-counts.tsx';
import { RewardStatusBadge, VoucherStatusBadge } from './reward-status-badge.tsx';
import { useRecordTitle } from '../../../lib/document-title.ts';

type SortField = ListParams<typeof listVouchersQuerySchema>['sort'];

/** "dal — al 25/05/2027" read as a missing date: an open end is left unsaid. */
function windowKey({ validFrom, validUntil }: Pick<Reward, 'validFrom' | 'validUntil'>) {
  if (validFrom && validUntil) return 'detail.window';
  if (validFrom) return 'detail.windowFrom';
  return validUntil ? 'detail.windowUntil' : 'detail.windowAlways';
}
type Option = { value: string; label: string };

/**
 * Codes waiting beyond the stock left: said, not refused (the stock can grow). Counted from the reward
 * as it is now (its query follows every voucher action), not from the batch's answer, which a code
 * voided or used afterwards would leave saying "5 codici in attesa"; `adding`: the codes a dry run
 * would add.
 */
function StockNotice({ reward, adding = 0 }: { reward: Reward; adding?: number }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  if (reward.stock === null) return null;
  const waiting = reward.vouchers.available + adding;
  const left = reward.stock;
  if (waiting <= left) return null;
  return (
    <Alert color="yellow" role="status">
      {t('vouchers.beyondStock', { count: waiting, waiting: format.number(waiting), left: format.number(left) })}
    </Alert>
  );
}

function GenerateVouchers({ reward }: { reward: Reward }) {
  const rewardId = reward.id;
  const { t, i18n } = useTranslation('rewards');
  const [count, setCount] = useState<number | string>(20);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<VoucherBatchResult | null>(null);
  const create = useCreateVouchers(rewardId);
  const generate = () => {
    setFailure(null);
    setResult(null);
    // The contract's bounds, said on the field: 0 is not quietly made 1, nor 100.000 quietly 10.000.
    const parsed = generateVouchersSchema.safeParse({ count: count === '' ? undefined : Number(count) });
    if (!parsed.success) {
      setFieldError(issueMessage(parsed.error.issues[0]!, i18n.language === 'en' ? 'en' : 'it'));
      return;
    }
    setFieldError(null);
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        setResult(answer);
        notifySuccess(t('vouchers.generated', { count: answer.created }));
      },
      onError: (error) => {
        if (hasFieldErrors(error)) setFieldError(error.fields[0]!.message);
        else setFailure(describeApiError(error));
      },
    });
  };
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {t('vouchers.generateTitle')}
      </Title>
      <Group align="flex-start">
        <NumberInput
          label={t('vouchers.count')}
          value={count}
          onChange={setCount}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          // A count takes no mark: with "." as the Italian thousands mark, "12.5" was read as 125.
          allowedDecimalSeparators={[]}
          error={fieldError}
          w={200}
        />
        <Button mt={25} loading={create.isPending} onClick={generate}>
          {t('vouchers.generate')}
        </Button>
      </Group>
      {failure ? (
        <Text c="red" size="sm" role="alert">
          {failure}
        </Text>
      ) : null}
      {result ? <StockNotice reward={reward} /> : null}
    </Stack>
  );
}

function ImportVouchers({ reward }: { reward: Reward }) {
  const rewardId = reward.id;
  const { t } = useTranslation('rewards');
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<VoucherBatchResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateVouchers(rewardId);
  const run = (dryRun: boolean) => {
    if (!file) return;
    setFailure(null);
    create.mutate(
      { file, dryRun },
      {
        onSuccess: (result) => {
          setReport(result);
          if (!result.dryRun) notifySuccess(t('vouchers.imported', { count: result.created }));
        },
        onError: (error) => setFailure(describeApiError(error)),
      },
    );
  };
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {t('vouchers.importTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('vouchers.importHelp')}
      </Text>
      <Group align="flex-end">
        <FileInput label={t('vouchers.file')} accept=".csv,text/csv" value={file} onChange={(next) => { setFile(next); setReport(null); }} clearable w={260} />
        <Button variant="light" disabled={!file} loading={create.isPending} onClick={() => run(true)}>
          {t('vouchers.dryRun')}
        </Button>
        <Button disabled={!file || !report?.dryRun} loading={create.isPending} onClick={() => run(false)}>
          {t('vouchers.import')}
        </Button>
      </Group>
      {failure ? (
        <Text c="red" size="sm" role="alert">
          {failure}
        </Text>
      ) : null}
      {report ? (
        // A row's text quotes its code as the file has it (up to 50 characters with no space, more for a
        // code with dashes): broken anywhere, it stays inside the box of a half-width card at 1366 px.
        <Alert
          color={report.errors.length > 0 ? 'yellow' : 'green'}
          title={t(report.dryRun ? 'vouchers.dryRunReport' : 'vouchers.importReport', { count: report.created })}
          style={{ overflowWrap: 'anywhere' }}
        >
          {report.rewrittenCount > 0 ? (
            <>
              <Text size="sm">{t('vouchers.rewritten', { count: report.rewrittenCount })}</Text>
              <List size="sm" mb="xs">
                {report.rewritten.map((change) => (
                  <List.Item key={change.row}>{t('vouchers.rewrittenRow', change)}</List.Item>
                ))}
              </List>
            </>
          ) : null}
          {report.errors.length > 0 ? (
            <List size="sm">
              {report.errors.slice(0, 50).map((error) => (
                <List.Item key={`${error.row}-${error.code}`}>{t('vouchers.rowError', { row: error.row, message: error.message })}</List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm">{t('vouchers.noErrors')}</Text>
          )}
        </Alert>
      ) : null}
      {report ? <StockNotice reward={reward} adding={report.dryRun ? report.created : 0} /> : null}
    </Stack>
  );
}

/** The till's step from the back-office: a code used at a merchant of the program, once. */
export function UseVoucherForm({ merchantOptions }: { merchantOptions: Option[] }) {
  const { t } = useTranslation('rewards');
  const [code, setCode] = useState('');
  const [merchantId, setMerchantId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const use = useUseVoucher();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!code.trim() || !merchantId) return;
        setFailure(null);
        use.mutate(
          { code, merchantId },
          {
            onSuccess: (result) => {
              notifySuccess(t('vouchers.usedOk', { code: result.code }));
              setCode('');
            },
            onError: (error) => setFailure(describeApiError(error)),
          },
        );
      }}
    >
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('vouchers.useTitle')}
        </Title>
        <Group align="flex-end">
          <TextInput label={t('vouchers.code')} value={code} onChange={(event) => setCode(event.currentTarget.value)} required w={200} />
          <Select label={t('vouchers.merchant')} data={merchantOptions} value={merchantId} onChange={setMerchantId} required searchable w={220} />
          <Button type="submit" loading={use.isPending} disabled={!code.trim() || !merchantId}>
            {t('vouchers.use')}
          </Button>
        </Group>
        {failure ? (
          <Text c="red" size="sm" role="alert">
            {failure}
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}

function VoucherList({ rewardId, customerHref }: { rewardId: string; customerHref: (id: string) => string }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const list = useList(listVouchersQuerySchema, (query) => useVouchers(rewardId, query));
  const { mutate: voidVoucher } = useVoidVoucher(rewardId);
  // Asked in the app's own dialog, and the outcome said either way: the request is silent, so a refusal
  // (a code used at a till meanwhile) left the operator believing it voided.
  const confirmVoid = useCallback(
    (voucher: Voucher) =>
      modals.openConfirmModal({
        title: t('vouchers.voidTitle', { code: voucher.code }),
        children: (
          <Text size="sm">
            {voucher.status === 'issued' ? t('vouchers.voidMessageIssued', { name: voucher.customerName ?? t('vouchers.theCustomer') }) : t('vouchers.voidMessageAvailable')}
          </Text>
        ),
        labels: { confirm: t('vouchers.voidConfirmButton'), cancel: t('vouchers.voidBack') },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          voidVoucher(voucher.id, {
            onSuccess: () => notifySuccess(t('vouchers.voided', { code: voucher.code })),
            onError: (error) => notifyError(describeApiError(error)),
          }),
      }),
    [t, voidVoucher],
  );
  const columns = useMemo<DataTableColumn<Voucher, SortField>[]>(
    () => [
      { id: 'code', header: t('vouchers.columns.code'), sortField: 'code', firstOrder: 'asc', cell: (voucher) => <Text inherit ff="monospace">{voucher.code}</Text> },
      { id: 'status', header: t('vouchers.columns.status'), sortField: 'status', firstOrder: 'asc', cell: (voucher) => <VoucherStatusBadge status={voucher.status} /> },
      {
        id: 'customer',
        isName: true,
        header: t('vouchers.columns.customer'),
        cell: (voucher) =>
          voucher.customerId ? (
            <Anchor component={Link} to={customerHref(voucher.customerId)} inherit>
              {/* An erased customer's name is empty: the row says so rather than a blank. */}
              {voucher.customerName || t('vouchers.erasedCustomer')}
            </Anchor>
          ) : (
            '—'
          ),
      },
      { id: 'issuedAt', header: t('vouchers.columns.issuedAt'), sortField: 'issuedAt', cell: (voucher) => (voucher.issuedAt ? format.dateTime(voucher.issuedAt) : '—') },
      { id: 'usedAt', header: t('vouchers.columns.usedAt'), sortField: 'usedAt', cell: (voucher) => (voucher.usedAt ? format.dateTime(voucher.usedAt) : '—') },
      {
        id: 'actions',
        header: t('vouchers.columns.actions'),
        cell: (voucher) =>
          voucher.status === 'available' || voucher.status === 'issued' ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              aria-label={t('vouchers.voidLabel', { code: voucher.code })}
              onClick={() => confirmVoid(voucher)}
            >
              {t('vouchers.void')}
            </Button>
          ) : null,
      },
    ],
    [t, format, customerHref, confirmVoid],
  );
  return (
    <Stack gap="sm">
      <ListToolbar
        params={list.params}
        update={list.update}
        searchPlaceholder={t('vouchers.searchPlaceholder')}
        filters={[
          { type: 'select', field: 'status', label: t('vouchers.filterStatus'), allLabel: t('filters.allStatuses'), options: VOUCHER_STATUSES.map((value) => ({ value, label: t(`voucherStatus.${value}`) })), width: 180 },
        ]}
        exportPath={vouchersPath(rewardId)}
      />
      <ListTable list={list} texts={{ caption: t('vouchers.caption'), empty: t('vouchers.empty'), errorTitle: t('errorTitle') }} columns={columns} getRowId={(voucher) => String(voucher.id)} />
    </Stack>
  );
}

type Props = {
  rewardId: string;
  listHref: string;
  programs: { value: string; label: string; type: 'points' | 'stamps' }[];
  /** The merchants of a program: where its vouchers may be used. */
  merchantsOfProgram: (programId: string) => Option[];
  customerHref: (id: string) => string;
};

/** `/rewards/:id` — a reward, its vouchers (generate, import, list, void) and the use of a code. */
export function RewardDetailPage({ rewardId, listHref, programs, merchantsOfProgram, customerHref }: Props) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const drawer = useDrawerParam('reward');
  const query = useReward(rewardId);
  const reward = query.data;
  useRecordTitle(reward?.name);
  // Only a read with nothing to show replaces the page; a failed refetch (after a batch of vouchers, an
  // edit) keeps it (`StaleDataNotice`).
  if (isBlockingFailure(query) && isMissingRecord(query.error)) return <RecordNotFound title={t('notFound.title')} text={t('notFound.text')} back={t('backToList')} backHref={listHref} />;
  if (isBlockingFailure(query)) return <Alert color="red" role="alert" title={t('errorTitle')}>{describeApiError(query.error)}</Alert>;
  if (!reward) return <Loader aria-label={t('loading')} />;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={listHref} size="sm">
        {t('backToList')}
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={1}>{reward.name}</Title>
          <RewardStatusBadge status={reward.status} />
        </Group>
        <Can permission="rewards:write">
          <Button variant="light" component={Link} to={drawer.hrefFor(reward.id)}>
            {t('edit')}
          </Button>
        </Can>
      </Group>
      <StaleDataNotice query={query} />
      <Paper withBorder p="md" radius="md">
        <Group align="flex-start" wrap="nowrap">
          {reward.imageUrl ? <Image src={reward.imageUrl} alt={t('form.imageAlt')} w={120} h={120} fit="cover" radius="sm" /> : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ flex: 1 }}>
            <Text size="sm">{t('detail.program', { name: reward.programName })}</Text>
            <Text size="sm">{t('detail.cost', { cost: t(`cost.${reward.costUnit}`, { count: reward.cost, value: format.number(reward.cost) }) })}</Text>
            <Text size="sm">{t('detail.stock', { stock: reward.stock === null ? t('unlimited') : format.number(reward.stock) })}</Text>
            <Text size="sm">{t('detail.limit', { limit: reward.limitPerCustomer === null ? t('unlimited') : format.number(reward.limitPerCustomer) })}</Text>
            <Text size="sm">
              {t(windowKey(reward), { from: reward.validFrom ? format.day(reward.validFrom) : '', until: reward.validUntil ? format.day(reward.validUntil) : '' })}
            </Text>
            {/* Named: its "0 disponibili" (codes not yet given) is not the reward's Disponibilità beside it. */}
            <Text size="sm">
              {t('detail.vouchers')} <VoucherCounts counts={reward.vouchers} />
            </Text>
          </SimpleGrid>
        </Group>
        {reward.description ? (
          <Text size="sm" mt="sm">
            {reward.description}
          </Text>
        ) : null}
      </Paper>
      {/* The cards' titles are h2 as "Buoni" is, sections of the reward: an h3 under the h1 skipped a level (axe heading-order). */}
      <Can permission="rewards:write">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder>
            <GenerateVouchers reward={reward} />
          </Card>
          <Card withBorder>
            <ImportVouchers reward={reward} />
          </Card>
        </SimpleGrid>
      </Can>
      <Can permission="vouchers:use">
        <Card withBorder>
          <UseVoucherForm merchantOptions={merchantsOfProgram(reward.programId)} />
        </Card>
      </Can>
      <Title order={2} size="h3">
        {t('vouchers.title')}
      </Title>
      <VoucherList rewardId={reward.id} customerHref={customerHref} />
      <RewardFormDrawer target={drawer.target} programs={programs} onClose={drawer.close} onSaved={() => drawer.close()} />
    </Stack>
  );
}
