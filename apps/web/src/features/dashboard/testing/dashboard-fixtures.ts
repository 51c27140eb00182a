import type { Dashboard } from '@sf/contract/dashboard';

/** A whole dashboard answer for component tests; `overrides` change the period's figures. */
export function dashboardAnswer(
  overrides: Partial<Dashboard['period']> = {},
): Dashboard {
  const answer: Dashboard = {
    postsByStatus: { draft: 3, scheduled: 2, published: 1234, archived: 0 },
    loyalty: {
      customersTotal: 3012,
      customersNew: 41,
      activeMerchants: 24,
      pointsIssued: 125_400,
      pointsRedeemed: 48_250,
      pointsOutstanding: 1_234_567,
      periodDays: 30,
    },
    pendingStaff: 2,
    integrity: [],
    period: {
      from: '2026-10-24',
      to: '2026-11-22',
      // Rome's midnights (summer time on 24 October, winter time on 23 November), as the server cuts them.
      startsAt: '2026-10-23T22:00:00.000Z',
      endsAt: '2026-11-22T23:00:00.000Z',
      programId: null,
      merchantId: null,
      customersTotal: 3012,
      customersNew: 41,
      customersActive: 870,
      activeMerchants: 24,
      pointsIssued: 125_400,
      pointsRedeemed: 48_250,
      pointsExpired: 1_500,
      pointsAdjusted: -20,
      pointsReversed: -30,
      pointsNetChange: 75_600,
      pointsOutstanding: 1_234_567,
      stampsIssued: 640,
      stampsRedeemed: 90,
      redemptions: 311,
      purchases: 5_210,
      trend: [
        {
          day: '2026-11-21',
          pointsIssued: 4_000,
          pointsRedeemed: 1_200,
          pointsExpired: 0,
          stampsIssued: 20,
          purchases: 170,
        },
        {
          day: '2026-11-22',
          pointsIssued: 3_500,
          pointsRedeemed: 900,
          pointsExpired: 100,
          stampsIssued: 25,
          purchases: 150,
        },
      ],
      topMerchants: [
        {
          merchantId: '00000000-0000-4000-8000-000000000001',
          name: 'Bar Centrale',
          pointsIssued: 40_000,
          purchases: 1_600,
        },
      ],
      tierMix: [
        { tier: null, members: 100 },
        { tier: 'Oro', members: 12 },
      ],
      topRewards: [
        {
          rewardId: '00000000-0000-4000-8000-000000000002',
          name: 'Caffè omaggio',
          programName: 'Tessera Bar Centrale',
          vouchers: 57,
        },
      ],
      pendingApprovals: 4,
      privacyDeadlines: {
        count: 1,
        items: [
          {
            id: '00000000-0000-4000-8000-000000000003',
            kind: 'erasure',
            dueAt: '2026-11-25T10:00:00.000Z',
            daysLeft: 2,
          },
        ],
      },
    },
    nextScheduled: [
      {
        id: 12,
        title: 'Saldi di primavera',
        publishAt: '2026-12-01T08:00:00.000Z',
        author: { id: 'u-editor', displayName: 'Eddie Editor' },
      },
    ],
    latestChanges: [
      {
        id: 90,
        at: '2026-11-21T15:04:00.000Z',
        actorId: 'u-admin',
        actorEmail: 'admin@demo.test',
        action: 'news.publish',
        entityType: 'news_post',
        entityId: '12',
        requestId: 'r1',
        record: { name: 'Saldi di primavera', isErased: false },
      },
      {
        id: 89,
        at: '2026-11-21T14:00:00.000Z',
        actorId: null,
        actorEmail: null,
        action: 'staff.update',
        entityType: 'user',
        entityId: 'u-9',
        requestId: null,
        record: null,
      },
    ],
  };
  return { ...answer, period: { ...answer.period, ...overrides } };
}
