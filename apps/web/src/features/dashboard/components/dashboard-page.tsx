import {
  Alert,
  Anchor,
  Button,
  Card,
  Code,
  Group,
  RingProgress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDeferredValue, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { Dashboard } from '@sf/contract/dashboard';
import { LEDGER_REBUILD_COMMAND, LEDGER_VERIFY_COMMAND } from '@sf/contract/integrity';
import { NEWS_STATUSES, type NewsStatus } from '@sf/contract/news';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SidewaysScroll } from '../../../components/ui/sideways-scroll.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { describeApiError } from '../../../lib/api-client.ts';
import { useDescribeChange } from '../../../lib/describe-change.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useSearchParamsWriter } from '../../../hooks/use-list-params.ts';
import { dayOfInstant } from '../../../lib/time-zone.ts';
import { useDashboard } from '../api/get-dashboard.ts';
import { readFilters, UUID_RE, writeFilters, type DashboardFilters } from '../lib/period.ts';
import { DashboardFilterBar, type Option } from './dashboard-filters.tsx';
import { PeriodFigures } from './period-figures.tsx';

const STATUS_COLORS: Record<NewsStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  published: 'green',
  archived: 'orange',
};

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

/** The records "Ultime modifiche" can open: their own page, or their list with the record open. */
const ENTITY_PAGES: Record<string, (id: string) => string> = {
  news_post: (id) => `/news?post=${id}`,
  reward: (id) => `/rewards/${id}`,
  customer: (id) => `/customers/${id}`,
};

/**
 * The dashboard's own words for the actions whose verb and entity kind (the Audit screen's words, shared
 * through `useDescribeChange`) mislead here: `card_link.create` on a membership read "Creata iscrizione",
 * an enrolment, when someone only opened a customer's page. A kind with names follows the phrase as
 * elsewhere ("Bloccato" cliente “Anna Neri”); one without is said by the phrase alone.
 */
function useLatestChangeWords() {
  const { t, i18n } = useTranslation('dashboard');
  return (action: string): string | null => {
    const key = `changes.actions.${action}`;
    return i18n.exists(`dashboard:${key}`) && typeof t(key, { returnObjects: true }) === 'string' ? t(key) : null;
  };
}

function LatestChanges({ entries }: { entries: Dashboard['latestChanges'] }) {
  const { t } = useTranslation('dashboard');
  const ownWords = useLatestChangeWords();
  const describe = useDescribeChange();
  const format = useFormatters();
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="dashboard-changes-heading">
      <Title order={2} size="h3" id="dashboard-changes-heading" mb="sm">
        {t('changes.title')}
      </Title>
      {entries.length === 0 ? (
        <Text c="dimmed">{t('changes.empty')}</Text>
      ) : (
        <SidewaysScroll
          minWidth={480}
          // When the table is wider than the card and its rows hold no link, keyboard users could not
          // scroll it: the scroller itself takes the focus (axe: scrollable-region-focusable).
          tabIndex={0}
          role="group"
          aria-labelledby="dashboard-changes-heading"
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
                const own = ownWords(entry.action);
                const what = own ?? describe.action(entry.action, entry.entityType);
                const entity = describe.entity(entry.entityType);
                // The record by its name while it has one (premio “Caffè omaggio”); else "movimento n. 58542" for a
                // number; a generated id (a UUID) is no name for a person: the word alone.
                const named = entry.record?.name
                  ? t('changes.named', { type: entity, name: entry.record.name })
                  : entry.entityId && !UUID_RE.test(entry.entityId)
                    ? t('changes.entity', { type: entity, id: entry.entityId })
                    : entity;
                const page = entry.entityId && !entry.action.endsWith('.delete') ? ENTITY_PAGES[entry.entityType]?.(entry.entityId) : undefined;
                return (
                  <Table.Tr key={entry.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{format.dateTime(entry.at)}</Table.Td>
                    <Table.Td>{describe.actor(entry.actorEmail)}</Table.Td>
                    <Table.Td>
                      {what}
                      {/* The dashboard's own phrase says what a record without a name is ("Creato il link della tessera"). */}
                      {entry.entityId &&
                        (!own || entry.record) &&
                        (page ? (
                          <>
                            {' '}
                            {/* Underlined: a link inside a sentence is told apart by more than its colour (WCAG 1.4.1). */}
                            <Anchor component={Link} to={page} inherit underline="always">
                              {named}
                            </Anchor>
                          </>
                        ) : (
                          ` ${named}`
                        ))}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </SidewaysScroll>
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

/** Accounts waiting for an admin to approve them (B7), with the way to the Staff screen. */
function PendingStaff({ count }: { count: number }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  if (count === 0) return null;
  return (
    <Alert color="orange" variant="light" title={t('pendingStaff.title')} data-testid="pending-staff">
      <Group gap="sm">
        <Text size="sm">{t('pendingStaff.text', { count, n: format.number(count) })}</Text>
        {/* The theme's link blue is 4.2:1 on the orange alert: the alert's own text colour, underlined. */}
        <Anchor component={Link} to="/staff?role=none&status=active" size="sm" c="inherit" underline="always">
          {t('pendingStaff.open')}
        </Anchor>
      </Group>
    </Alert>
  );
}

/**
 * "Integrità dei dati" (decision 032): what the nightly check found different from the ledger, since
 * when, and what to do about it — the command that recomputes the derived figures, or, for the
 * ledger's own figures, that they must be investigated first.
 */
function IntegrityNotice({ findings }: { findings: Dashboard['integrity'] }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  if (findings.length === 0) return null;
  const hasRebuildable = findings.some((finding) => finding.isRebuildable);
  const hasOthers = findings.some((finding) => !finding.isRebuildable);
  return (
    <Alert color="red" variant="light" title={t('integrity.title')} data-testid="integrity-notice">
      <Stack gap="xs">
        <Text size="sm">{t('integrity.text')}</Text>
        <Stack gap={2} component="ul" style={{ margin: 0, paddingInlineStart: '1.2rem' }}>
          {findings.map((finding) => (
            <li key={finding.figure}>
              <Text size="sm">
                {t('integrity.finding', {
                  figure: t(`integrity.figures.${finding.figure}`),
                  count: finding.problems,
                  n: format.number(finding.problems),
                  since: format.dateTime(finding.firstSeenAt),
                })}
              </Text>
            </li>
          ))}
        </Stack>
        {hasRebuildable && (
          <Text size="sm">
            {t('integrity.rebuild')} <Code>{LEDGER_REBUILD_COMMAND}</Code>
          </Text>
        )}
        {hasOthers && (
          <Text size="sm">
            {t('integrity.investigate')} <Code>{LEDGER_VERIFY_COMMAND}</Code>
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

type Props = {
  /** Program and merchant choices of the filters (composed by the route: a feature never imports another). */
  programOptions?: Option[];
  merchantOptions?: Option[];
  /** A filter's choices are wanted (it got focus or opened): the route then asks for them. */
  onOptionsWanted?: () => void;
};

/** The admin's dashboard: the period's loyalty figures (filters in the URL), then news and the latest changes. */
export function DashboardPage({ programOptions = [], merchantOptions = [], onOptionsWanted }: Props) {
  const { t } = useTranslation('dashboard');
  const [search] = useSearchParams();
  const writeSearch = useSearchParamsWriter();
  // Today in the user's zone (as every time on screen), not the browser's.
  const { timeZone } = useFormatters();
  const today = dayOfInstant(new Date().toISOString(), timeZone);
  const filters = useMemo(() => readFilters(search, today), [search, today]);
  const setFilters = (next: DashboardFilters) => writeSearch((current) => writeFilters(current, next), { replace: true });
  const query = useDashboard({ from: filters.from, to: filters.to, programId: filters.programId, merchantId: filters.merchantId });
  // The figures render as a deferred, interruptible update: the query's answer arrives as a blocking one,
  // and the dozen figures, tables and the chart then held the page for ~100 ms (~500 under load), so a
  // click on the menu in the meantime waited for them (issue 32).
  const data = useDeferredValue(query.data);
  return (
    <Stack gap="lg">
      <Title order={1}>{t('title')}</Title>
      <DashboardFilterBar filters={filters} onChange={setFilters} programOptions={programOptions} merchantOptions={merchantOptions} onOptionsWanted={onOptionsWanted} today={today} />
      {!data && !query.isError && <DashboardSkeleton />}
      {/* Only figures never loaded give way to the failure; a failed refresh (after a write) keeps them. */}
      {isBlockingFailure(query) && (
        <Alert color="red" title={t('error.title')} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{describeApiError(query.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()} loading={query.isFetching}>
              {t('error.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      <StaleDataNotice query={query} />
      {data && (
        <>
          <IntegrityNotice findings={data.integrity} />
          <PendingStaff count={data.pendingStaff} />
          <PeriodFigures figures={data.period} filters={filters} isUpdating={query.isPlaceholderData} />
          <StatusCards counts={data.postsByStatus} />
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <NextScheduled posts={data.nextScheduled} />
            <LatestChanges entries={data.latestChanges} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
