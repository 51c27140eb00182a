import { http, HttpResponse } from 'msw';
import type { Reward } from '@sf/contract/rewards';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { RedeemRewardDialog } from '../components/redeem-reward-dialog.tsx';

export const REWARD_ID = '00000000-0000-4000-8000-0000000000a1';
export const PROGRAM_ID = '00000000-0000-4000-8000-000000000002';
export const CUSTOMER_ID = '00000000-0000-4000-8000-0000000000c1';

/** A complete reward as the API answers it (Gelato, 100 points, Circuito Centro); override what a test cares about. */
export function reward(overrides: Partial<Reward> = {}): Reward {
  return {
    id: REWARD_ID,
    programId: PROGRAM_ID,
    programName: 'Circuito Centro',
    costUnit: 'points',
    name: 'Gelato',
    description: '',
    imageId: null,
    imageUrl: null,
    cost: 100,
    stock: 5,
    validFrom: '2026-11-01',
    validUntil: '2027-06-30',
    limitPerCustomer: null,
    status: 'active',
    vouchers: { available: 0, issued: 0, used: 0, expired: 0, void: 0 },
    version: 1,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

export type RedemptionCall = { key: string | null; body: unknown };

/**
 * The redeem dialog for Giulia Bianchi: `rewards` on offer, her `membership` of their program, and
 * the redemptions answered in turn by `answers`. Answers the redemption calls as they were sent.
 */
export function renderRedeemDialog({
  rewards,
  membership,
  answers,
  onClose = () => undefined,
  programs = [],
  merchantOptions = [],
}: {
  rewards: Reward[];
  membership: { programId: string; balance: number; stamps: number };
  answers: (() => Response)[];
  onClose?: () => void;
  /** The programs' circuits and the active merchants, as the app layer's lookups give them. */
  programs?: { id: string; merchantIds: string[] }[];
  merchantOptions?: { value: string; label: string }[];
}): RedemptionCall[] {
  const calls: RedemptionCall[] = [];
  server.use(
    http.get('/api/admin/rewards', () => HttpResponse.json({ items: rewards, total: rewards.length, page: 1, pageSize: 100 })),
    http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership] })),
    http.post('/api/admin/redemptions', async ({ request }) => {
      calls.push({ key: request.headers.get('Idempotency-Key'), body: await request.json() });
      return answers[calls.length - 1]?.() ?? HttpResponse.json({}, { status: 500 });
    }),
  );
  renderWithProviders(
    <RedeemRewardDialog isOpen onClose={onClose} customer={{ id: CUSTOMER_ID, label: 'Giulia Bianchi' }} renderCustomerPicker={() => null} programs={programs} merchantOptions={merchantOptions} />,
    { route: '/', user: { role: 'admin' } },
  );
  return calls;
}
