import type { Campaign } from '@sf/contract/campaigns';
import type { CampaignPage } from '../api/get-campaigns.ts';

/** A campaign as the API answers it; pass what a test cares about. */
export function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Caffè di novembre',
    subject: 'Ciao {{nome}}, un caffè ti aspetta',
    preheader: '',
    body: '<p>Ciao</p>',
    audience: { programId: null, merchantId: null, tier: null, inactiveDays: null, birthdayMonth: null, joinedAfter: null },
    status: 'draft',
    counts: { recipients: 0, queued: 0, sent: 0, failed: 0, skipped: 0, unknown: 0, unsubscribed: 0 },
    scheduledAt: null,
    sentAt: null,
    createdAt: '2026-11-02T09:00:00.000Z',
    updatedAt: '2026-11-02T09:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

export function campaignPage(items: Campaign[], overrides: Partial<CampaignPage> = {}): CampaignPage {
  return { items, total: items.length, page: 1, pageSize: 25, ...overrides };
}
