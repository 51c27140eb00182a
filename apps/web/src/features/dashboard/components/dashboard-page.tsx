import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  RingProgress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { Dashboard } from '@sf/contract/dashboard';
import { NEWS_STATUSES, type NewsStatus } from '@sf/contract/news';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../../../lib/format.ts';
import { useDashboard } from '../api/get-dashboard.ts';

const STATUS_COLORS: Record<NewsStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  published: 'green',
  archived: 'orange',
};

function LoyaltyFigures({ figures }: { figures: Dashboard['loyalty'] }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  const cards = [
    { id: 'customers', label: t('loyalty.customers'), value: figures.customersTotal, hint: t('loyalty.customersNew', { count: figures.customersNew, new: format.number(figures.customersNew), days: figures.periodDays }), to: '/customers' },
    { id: 'merchants', label: t('loyalty.merchants'), value: figures.activeMerchants, hint: null, to: '/merchants?status=active' },
    { id: 'issued', label: t('loyalty.issued', { days: figures.periodDays }), value: figures.pointsIssued, hint: null, to: '/ledger?kind=earn' },
    { id: 'redeemed', label: t('loyalty.redeemed', { days: figures.periodDays }), value: figures.pointsRedeemed, hint: null, to: '/ledger?kind=redeem' },
    { id: 'outstanding', label: t('loyalty.outstanding'), value: figures.pointsOutstanding, hint: null, to: null },
  ];
  return (
    <section aria-labelledby="dashboard-loyalty-heading">
      <Title order={2} size="h3" id="dashboard-loyalty-heading" mb="sm">
        {t('loyalty.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
        {cards.map((card) => (
          <Card key={card.id} withBorder padding="md" radius="md" data-testid={`loyalty-${card.id}`}>
            <Stack gap={2}>
              <Text size="sm" c="dimmed" fw={600} tt="uppercase">
                {card.label}
              </Text>
              <Text fz={28} fw={700} lh={1.1}>
                {format.number(card.value)}
              </Text>
              {card.hint ? (
                <Text size="sm" c="dimmed">
                  {card.hint}
                </Text>
              ) : null}
              {card.to ? (
                <Anchor component={Link} to={card.to} size="sm">
                  {t('loyalty.open', { what: card.label })}
                </Anchor>
              ) : null}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  );
}

function StatusCards({ counts }: { counts: Dashboard['postsByStatus'] }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  const total = NEWS_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return (
    <section aria-labelledby="dashboard-posts-heading">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3" id="dashboard-posts-heading">
          {t('posts.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('posts.total', { total: format.number(total) })}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {NEWS_STATUSES.map((status) => {
          const share = total === 0 ? 0 : Math.round((counts[status] / total) * 100);
          return (
            <Card key={status} withBorder padding="md" radius="md" data-testid={`posts-${status}`}>
              <Group wrap="nowrap" justify="space-between">
                <Stack gap={2}>
                  <Text size="sm" c="dimmed" fw={600} tt="uppercase">
                    {t(`posts.status.${status}`)}
                  </Text>
                  <Text fz={32} fw={700} lh={1.1}>
                    {format.number(counts[status])}
                  </Text>
                  <Anchor component={Link} to={`/news?status=${status}`} size="sm">
                    {t('posts.open', { status: t(`posts.status.${status}`) })}
                  </Anchor>
                </Stack>
                <RingProgress
                  size={72}
                  thickness={8}
                  roundCaps
                  sections={[{ value: share, color: STATUS_COLORS[status] }]}
                  label={
                    <Text ta="center" size="xs" fw={600}>
                      {format.number(share)}%
                    </Text>
                  }
                  aria-label={t('posts.share', { share: format.number(share), status: t(`posts.status.${status}`) })}
                  role="img"
                />
              </Group>
            </Card>
          );
        })}
      </SimpleGrid>
    </section>
  );
}

function NextScheduled({ posts }: { posts: Dashboard['nextScheduled'] }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="dashboard-next-heading">
      <Title order={2} size="h3" id="dashboard-next-heading" mb="sm">
        {t('next.title')}
      </Title>
      {posts.length === 0 ? (
        <Text c="dimmed">{t('next.empty')}</Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {posts.map((post) => (
            <li key={post.id}>
              <Anchor component={Link} to={`/news?post=${post.id}`} fw={500}>
                {post.title}
              </Anchor>
              <Text size="sm" c="dimmed">
                {t('next.when', { date: post.publishAt ? format.dateTime(post.publishAt) : '—', author: post.author.displayName })}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function LatestChanges({ entries }: { entries: Dashboard['latestChanges'] }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="dashboard-changes-heading">
      <Title order={2} size="h3" id="dashboard-changes-heading" mb="sm">
        {t('changes.title')}
      </Title>
      {entries.length === 0 ? (
        <Text c="dimmed">{t('changes.empty')}</Text>
      ) : (
        <Table.ScrollContainer
          minWidth={480}
          // When the table is wider than the card and its rows hold no link, keyboard users could not
          // scroll it: the viewport itself takes the focus (axe: scrollable-region-focusable).
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'group', 'aria-labelledby': 'dashboard-changes-heading' } }}
        >
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('changes.when')}</Table.Th>
                <Table.Th>{t('changes.who')}</Table.Th>
                <Table.Th>{t('changes.what')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => {
                const what = t(`changes.actions.${entry.action}`, { defaultValue: entry.action });
                const isPostLink = entry.entityType === 'news_post';
                return (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{format.dateTime(entry.at)}</Table.Td>
                    <Table.Td>{entry.actorEmail ?? t('changes.system')}</Table.Td>
                    <Table.Td>
                      {what}
                      {entry.entityId &&
                        (isPostLink && entry.action !== 'news.delete' ? (
                          <>
                            {' '}
                            <Anchor component={Link} to={`/news?post=${entry.entityId}`}>
                              {t('changes.post', { id: entry.entityId })}
                            </Anchor>
                          </>
                        ) : (
                          ` ${t('changes.entity', { type: t(`changes.entities.${entry.entityType}`, { defaultValue: entry.entityType }), id: entry.entityId })}`
                        ))}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function DashboardSkeleton() {
  const { t } = useTranslation('dashboard');
  return (
    <Stack aria-busy="true" aria-label={t('loading')} data-testid="dashboard-skeleton">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {NEWS_STATUSES.map((status) => (
          <Skeleton key={status} height={110} radius="md" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Skeleton height={220} radius="md" />
        <Skeleton height={220} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}

/** The admin's dashboard: the figures that exist today (news posts and the audit log), nothing invented. */
/** Accounts waiting for an admin to approve them (B7), with the way to the Staff screen. */
function PendingStaff({ count }: { count: number }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  if (count === 0) return null;
  return (
    <Alert color="orange" variant="light" title={t('pendingStaff.title')} data-testid="pending-staff">
      <Group gap="sm">
        <Text size="sm">{t('pendingStaff.text', { count, n: format.number(count) })}</Text>
        <Anchor component={Link} to="/staff?role=none&status=active" size="sm">
          {t('pendingStaff.open')}
        </Anchor>
      </Group>
    </Alert>
  );
}

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const query = useDashboard();
  return (
    <Stack gap="lg">
      <Title order={1}>{t('title')}</Title>
      {query.isPending && <DashboardSkeleton />}
      {query.isError && (
        <Alert color="red" title={t('error.title')} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('error.text')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
              {t('error.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {query.data && (
        <>
          <PendingStaff count={query.data.pendingStaff} />
          <LoyaltyFigures figures={query.data.loyalty} />
          <StatusCards counts={query.data.postsByStatus} />
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <NextScheduled posts={query.data.nextScheduled} />
            <LatestChanges entries={query.data.latestChanges} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
