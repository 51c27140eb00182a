import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { FIGURES_ACROSS_MERCHANTS, type DashboardPeriod } from '@sf/contract/dashboard-figures';
import { dashboardFigureLinks, figureHref, merchantFigureLink, type LinkedFigure } from '@sf/contract/dashboard-links';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../../../lib/format.ts';
import type { DashboardFilters } from '../lib/period.ts';

// recharts is big: it arrives with the chart, on this screen only.
const TrendChart = lazy(() => import('./trend-chart.tsx'));

/** `scope`: said when the figure does not follow the merchant chosen ("per tutti gli esercenti"). */
type Card = { id: string; value: number; to: string | null; hint?: string; scope?: string | undefined };

function customersLink(filters: DashboardFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (filters.programId) query.set('programId', filters.programId);
  const suffix = query.toString();
  return suffix ? `/customers?${suffix}` : '/customers';
}

function FigureCard({ card, label }: { card: Card; label: string }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  return (
    <Card withBorder padding="md" radius="md" data-testid={`figure-${card.id}`}>
      <Stack gap={2}>
        <Text size="sm" c="dimmed" fw={600} tt="uppercase">
          {label}
        </Text>
        <Text fz={28} fw={700} lh={1.1} data-testid={`figure-${card.id}-value`}>
          {format.number(card.value)}
        </Text>
        {card.hint ? (
          <Text size="sm" c="dimmed">
            {card.hint}
          </Text>
        ) : null}
        {card.scope ? (
          <Text size="sm" fw={600} data-testid={`figure-${card.id}-scope`}>
            {card.scope}
          </Text>
        ) : null}
        {card.to ? (
          <Anchor component={Link} to={card.to} size="sm">
            {t('figures.open', { what: label })}
          </Anchor>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The period's KPIs, trend, top merchants/rewards, tier mix and what waits for someone. */
export function PeriodFigures({ figures, filters, isUpdating }: { figures: DashboardPeriod; filters: DashboardFilters; isUpdating: boolean }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  // Each figure leads to the list whose total (or points) it is, over the period's business days as
  // the server cut them (decision 032).
  const links = dashboardFigureLinks(figures);
  const to = (id: LinkedFigure) => {
    const link = links[id];
    return link ? figureHref(link) : null;
  };
  // With a program chosen, the customer figures count its members (joined in the period, active in it):
  // "Nuovi clienti" then read more than the same period's new customers of every program.
  const figureLabel = (id: string) =>
    filters.programId && (id === 'customersTotal' || id === 'customersNew' || id === 'customersActive') ? t(`figures.members.${id}`) : t(`figures.${id}`);
  // With a merchant chosen, the figures it does not narrow (customers, balances, tiers) say so, rather
  // than read as that merchant's.
  const acrossMerchants = (id: string) =>
    figures.merchantId && (FIGURES_ACROSS_MERCHANTS as readonly string[]).includes(id) ? t('figures.acrossMerchants') : undefined;
  const cards: Card[] = [
    { id: 'customersTotal', value: figures.customersTotal, to: to('customersTotal') },
    { id: 'customersNew', value: figures.customersNew, to: to('customersNew') },
    {
      id: 'customersActive',
      value: figures.customersActive,
      to: to('customersActive'),
      hint: figures.merchantId ? t('figures.activeAtMerchantHint') : t('figures.activeHint'),
    },
    { id: 'activeMerchants', value: figures.activeMerchants, to: to('activeMerchants') },
    { id: 'pointsIssued', value: figures.pointsIssued, to: to('pointsIssued') },
    { id: 'pointsRedeemed', value: figures.pointsRedeemed, to: to('pointsRedeemed') },
    { id: 'pointsExpired', value: figures.pointsExpired, to: to('pointsExpired') },
    {
      id: 'pointsOutstanding',
      value: figures.pointsOutstanding,
      to: to('pointsOutstanding'),
      hint: t('figures.outstandingAt', { date: format.day(figures.to) }),
    },
    { id: 'stampsIssued', value: figures.stampsIssued, to: to('stampsIssued') },
    { id: 'redemptions', value: figures.redemptions, to: to('redemptions') },
    { id: 'purchases', value: figures.purchases, to: to('purchases') },
    { id: 'pendingApprovals', value: figures.pendingApprovals, to: to('pendingApprovals') },
  ];
  return (
    <Stack gap="lg" aria-busy={isUpdating} data-testid="period-figures" data-period={`${figures.from}/${figures.to}`}>
      <section aria-labelledby="dashboard-kpi-heading">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h3" id="dashboard-kpi-heading">
            {t('figures.title')}
          </Title>
          <Text c="dimmed" size="sm" data-testid="period-range">
            {t('figures.range', { from: format.day(figures.from), to: format.day(figures.to) })}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {cards.map((card) => (
            <FigureCard key={card.id} card={{ ...card, scope: acrossMerchants(card.id) }} label={figureLabel(card.id)} />
          ))}
        </SimpleGrid>
        <PointsBalance figures={figures} to={to('pointsNetChange')} />
      </section>
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="dashboard-trend-heading">
        <Title order={2} size="h3" id="dashboard-trend-heading" mb="sm">
          {t('trend.title')}
        </Title>
        <div role="img" aria-label={t('trend.summary', { issued: format.number(figures.pointsIssued), redeemed: format.number(figures.pointsRedeemed), days: figures.trend.length })}>
          <Suspense fallback={<Skeleton height={260} />}>
            <TrendChart trend={figures.trend} />
          </Suspense>
        </div>
      </Card>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <RankedList
          id="merchants"
          title={t('top.merchants')}
          empty={t('top.empty')}
          rows={figures.topMerchants.map((m) => ({ key: m.merchantId, label: m.name, value: m.pointsIssued, to: figureHref(merchantFigureLink(figures, m.merchantId)) }))}
          valueLabel={t('figures.pointsIssued')}
        />
        <RankedList
          id="rewards"
          title={t('top.rewards')}
          empty={t('top.empty')}
          rows={figures.topRewards.map((r) => ({ key: r.rewardId, label: r.name, detail: r.programName, value: r.vouchers, to: `/rewards/${r.rewardId}` }))}
          valueLabel={t('top.vouchers')}
        />
        <RankedList
          id="tiers"
          title={t('tiers.title')}
          scope={acrossMerchants('tierMix')}
          empty={t('top.empty')}
          rows={figures.tierMix.map((tier) => ({
            key: tier.tier ?? '-',
            label: tier.tier ?? t('tiers.none'),
            value: tier.members,
            to: filters.programId && tier.tier ? customersLink(filters, { tier: tier.tier }) : null,
          }))}
          valueLabel={t('tiers.members')}
        />
        <Card withBorder radius="md" padding="md" component="section" aria-labelledby="dashboard-privacy-heading" data-testid="privacy-deadlines">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h3" id="dashboard-privacy-heading">
              {t('privacy.title')}
            </Title>
            <Badge color={figures.privacyDeadlines.count > 0 ? 'red' : 'gray'}>{format.number(figures.privacyDeadlines.count)}</Badge>
          </Group>
          {figures.privacyDeadlines.items.length === 0 ? (
            <Text c="dimmed">{t('privacy.empty')}</Text>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {figures.privacyDeadlines.items.map((item) => (
                <li key={item.id}>
                  <Text size="sm">
                    {t(`privacy.kinds.${item.kind}`, { defaultValue: item.kind })} · {format.date(item.dueAt)} ·{' '}
                    {/* The "light" text colours (theme.ts darkens them): orange and red 6 are 3.0:1 and 3.3:1 on white. */}
                    <Text span c={item.daysLeft < 0 ? 'var(--mantine-color-red-light-color)' : 'var(--mantine-color-orange-light-color)'} fw={600}>
                      {item.daysLeft < 0 ? t('privacy.overdue', { count: -item.daysLeft }) : t('privacy.daysLeft', { count: item.daysLeft })}
                    </Text>
                  </Text>
                </li>
              ))}
            </Stack>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/**
 * How the period's points add up, so that an operator can reconcile the cards with Movimenti: issued −
 * redeemed − expired + adjusted + reversed = the net change, which is what Movimenti' points add up to
 * for the same filters (the link opens it). Reversals and adjustments have no card of their own.
 */
function PointsBalance({ figures, to }: { figures: DashboardPeriod; to: string | null }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  // A typographic minus, as the equation's other terms: "− 268", "+ 107".
  const term = (value: number) => `${value < 0 ? '−' : '+'} ${format.number(Math.abs(value))}`;
  const signed = (value: number) => `${value < 0 ? '−' : value > 0 ? '+' : ''}${format.number(Math.abs(value))}`;
  return (
    <Group gap="xs" mt="sm" data-testid="points-balance">
      <Text size="sm">
        {t('balance.text', {
          net: signed(figures.pointsNetChange),
          issued: format.number(figures.pointsIssued),
          redeemed: format.number(figures.pointsRedeemed),
          expired: format.number(figures.pointsExpired),
          adjusted: term(figures.pointsAdjusted),
          reversed: term(figures.pointsReversed),
        })}
      </Text>
      {to ? (
        <Anchor component={Link} to={to} size="sm">
          {t('balance.open')}
        </Anchor>
      ) : null}
    </Group>
  );
}

/** `detail`: what tells two rows of one name apart (a reward's program). */
type RankedRow = { key: string; label: string; detail?: string; value: number; to: string | null };

function RankedList({ id, title, scope, empty, rows, valueLabel }: { id: string; title: string; scope?: string | undefined; empty: string; rows: RankedRow[]; valueLabel: string }) {
  const format = useFormatters();
  const headingId = `dashboard-${id}-heading`;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId} data-testid={`ranked-${id}`}>
      <Title order={2} size="h3" id={headingId} mb="sm">
        {title}
      </Title>
      {scope ? (
        <Text size="sm" fw={600} mb="xs" data-testid={`ranked-${id}-scope`}>
          {scope}
        </Text>
      ) : null}
      {rows.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{title}</Table.Th>
              <Table.Th ta="right">{valueLabel}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>
                  {row.to ? (
                    <Anchor component={Link} to={row.to} inherit>
                      {row.label}
                    </Anchor>
                  ) : (
                    row.label
                  )}
                  {/* On a line of its own: beside the link, it made the link one told apart from its text by colour alone. */}
                  {row.detail ? (
                    <Text size="xs" c="dimmed">
                      {row.detail}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">{format.number(row.value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
