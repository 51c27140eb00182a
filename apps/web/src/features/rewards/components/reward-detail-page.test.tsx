import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Reward, VoucherBatchResult } from '@sf/contract/rewards';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { RedeemRewardDialog } from './redeem-reward-dialog.tsx';
import { RewardDetailPage } from './reward-detail-page.tsx';

const REWARD_ID = '00000000-0000-4000-8000-0000000000a1';
const reward: Reward = {
  id: REWARD_ID,
  programId: '00000000-0000-4000-8000-000000000002',
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
};

function renderPage(answer: (body: unknown) => VoucherBatchResult) {
  const bodies: unknown[] = [];
  server.use(
    http.get(`/api/admin/rewards/${REWARD_ID}`, () => HttpResponse.json(reward)),
    http.get(`/api/admin/rewards/${REWARD_ID}/vouchers`, () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
    http.post(`/api/admin/rewards/${REWARD_ID}/vouchers`, async ({ request }) => {
      const body = request.headers.get('content-type')?.includes('json') ? await request.json() : 'file';
      bodies.push(body);
      return HttpResponse.json(answer(body), { status: 201 });
    }),
  );
  renderWithProviders(
    <RewardDetailPage rewardId={REWARD_ID} listHref="/rewards" programs={[]} merchantsOfProgram={() => []} customerHref={(id) => `/customers/${id}`} />,
    { route: `/rewards/${REWARD_ID}`, user: { role: 'admin' } },
  );
  return bodies;
}

const batch = (overrides: Partial<VoucherBatchResult>): VoucherBatchResult => ({ dryRun: false, created: 0, errors: [], rewritten: [], rewrittenCount: 0, stock: null, ...overrides });

describe('a reward’s vouchers: nothing changed without a word', { timeout: 30_000 }, () => {
  it('shows the validity as the days typed, 01/11/2026 – 30/06/2027', async () => {
    renderPage(() => batch({}));
    expect(await screen.findByText(/01\/11\/2026.*30\/06\/2027/)).toBeInTheDocument();
  });

  it('refuses 0 and 100.000 codes on the field instead of making 1 or 10.000', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const bodies = renderPage(() => batch({}));
    const count = await screen.findByRole('textbox', { name: 'Quanti' });
    for (const [typed, text] of [['0', 'Numero di codici deve essere almeno 1'], ['100000', 'Numero di codici deve essere al massimo 10.000']] as const) {
      await user.clear(count);
      await user.type(count, typed);
      await user.tab();
      await user.click(screen.getByRole('button', { name: 'Genera' }));
      await waitFor(() => expect(count).toHaveAccessibleDescription(text));
      expect(count).toHaveValue(typed === '0' ? '0' : '100.000');
    }
    expect(bodies).toEqual([]);
  });

  it('warns when the codes waiting exceed the stock', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    renderPage(() => batch({ created: 20, stock: { waiting: 20, left: 5 } }));
    await user.click(await screen.findByRole('button', { name: 'Genera' }));
    expect(await screen.findByText(/20 codici in attesa per una disponibilità di 5/)).toBeInTheDocument();
  });

  it('lists the imported codes that will be stored otherwise than written', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    renderPage(() => batch({ dryRun: true, created: 1, rewritten: [{ row: 2, from: 'GELATO-001', to: 'GELATO001' }], rewrittenCount: 1 }));
    const input = (await screen.findByText('File CSV')).closest('div')!.parentElement!.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['codice\nGELATO-001\n'], 'codici.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Prova senza importare' }));
    const report = await screen.findByText(/1 codice sarà salvato senza spazi e trattini/);
    expect(within(report.parentElement!).getByText('Riga 2: GELATO-001 → GELATO001')).toBeInTheDocument();
  });
});

describe('redeeming a reward the customer cannot afford', { timeout: 30_000 }, () => {
  it('says so in stamps as soon as the reward is chosen, and does not let it be sent', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const customerId = '00000000-0000-4000-8000-0000000000c1';
    const stampReward: Reward = { ...reward, id: '00000000-0000-4000-8000-0000000000b2', name: 'Caffè omaggio', costUnit: 'stamps', cost: 15, programName: 'Tessera Bar' };
    let posts = 0;
    server.use(
      http.get('/api/admin/rewards', () => HttpResponse.json({ items: [stampReward], total: 1, page: 1, pageSize: 100 })),
      http.get(`/api/admin/customers/${customerId}/memberships`, () =>
        HttpResponse.json({ items: [{ programId: stampReward.programId, balance: 0, stamps: 8 }] }),
      ),
      http.post('/api/admin/redemptions', () => {
        posts += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    renderWithProviders(
      <RedeemRewardDialog isOpen onClose={() => undefined} customer={{ id: customerId, label: 'Giulia Bianchi' }} renderCustomerPicker={() => null} />,
      { route: '/', user: { role: 'admin' } },
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText(/Premio/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Caffè omaggio/, hidden: true }));
    expect(await within(dialog).findByText('Il saldo è di 8 timbri: questo premio ne costa 15')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Riscatta' })).toBeDisabled();
    expect(posts).toBe(0);
  });
});
