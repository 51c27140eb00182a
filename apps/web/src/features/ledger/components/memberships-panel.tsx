import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { rewardsReadyOf, type MembershipDetail } from '@sf/contract/ledger';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';
import { useMemberships } from '../api/get-memberships.ts';

/** A full stamp card, as a badge: what the counter needs to see first (the customer can take the reward now). */
function RewardsReadyBadge({ membership }: { membership: MembershipDetail }) {
  const { t } = useTranslation('ledger');
  const count = rewardsReadyOf(membership);
  return count > 0 ? (
    <Badge color="green" variant="light">
      {t('memberships.rewardsReady', { count })}
    </Badge>
  ) : null;
}

/** The customer's memberships: balance or stamps (and the rewards a full card holds), tier, and the points that expire soonest. */
export function MembershipsPanel({ customerId }: { customerId: string }) {
  const { t } = useTranslation('ledger');
  const format = useFormatters();
  const query = useMemberships(customerId);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('memberships.title')}
      </Title>
      {query.isError ? <Text c="red">{t('memberships.error')}</Text> : null}
      {query.data && query.data.items.length === 0 ? <Text c="dimmed">{t('memberships.empty')}</Text> : null}
      {/* Columns by the panel's own width, not the window's: the same panel fills the customer's page and
          a privacy request's drawer, where three columns by the window left each card 170 px wide. */}
      <SimpleGrid type="container" cols={{ base: 1, '480px': 2, '900px': 3 }}>
        {query.data?.items.map((membership) => (
          <Paper key={membership.id} withBorder p="md" radius="md" component="section" aria-label={membership.programName}>
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{membership.programName}</Text>
                {membership.tier ? <Badge variant="light">{membership.tier}</Badge> : null}
              </Group>
              {membership.programType === 'points' ? (
                <Text>
                  {t('memberships.balance')}: <strong data-testid="membership-balance">{format.number(membership.balance)}</strong>
                </Text>
              ) : (
                <Group gap="xs">
                  <Text>
                    {t('memberships.stamps')}:{' '}
                    <strong data-testid="membership-stamps">{t('memberships.stampsOf', { stamps: format.number(membership.stamps), required: membership.stampsRequired ?? '—' })}</strong>
                  </Text>
                  <RewardsReadyBadge membership={membership} />
                </Group>
              )}
              <Text size="sm" c="dimmed">
                {t('memberships.joinedAt')} {format.date(membership.joinedAt)}
              </Text>
              {membership.programType === 'points' ? (
                <Text size="sm" fw={membership.expiringSoon > 0 ? 600 : undefined} c={membership.expiringSoon > 0 ? 'orange.8' : 'dimmed'}>
                  {t('memberships.expiringSoon', { points: format.number(membership.expiringSoon) })}
                </Text>
              ) : null}
              {membership.tierChanges.slice(0, 3).map((change) => (
                <Text key={change.at} size="sm">
                  {t('memberships.tierChange', {
                    from: change.from ?? t('memberships.tierNone'),
                    to: change.to ?? t('memberships.tierNone'),
                    date: format.date(change.at),
                  })}
                </Text>
              ))}
              {membership.programType !== 'points' ? null : membership.expiring.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('memberships.noExpiring')}
                </Text>
              ) : (
                membership.expiring.slice(0, 3).map((lot) => (
                  <Text key={lot.expiresOn} size="sm">
                    {t('memberships.expiring', { points: format.number(lot.points), date: format.day(lot.expiresOn) })}
                  </Text>
                ))
              )}
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
