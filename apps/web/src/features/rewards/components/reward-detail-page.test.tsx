import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Reward, Voucher, VoucherBatchResult } from '@sf/contract/rewards';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { REWARD_ID, renderRedeemDialog, reward } from '../testing/reward-fixtures.tsx';
import { RewardDetailPage } from './reward-detail-page.tsx';

const gelato = reward();

function renderPage(answer: (body: unknown) => VoucherBatchResult, shown: Reward = gelato) {
  const bodies: unknown[] = [];
  server.use(
    http.get(`/api/admin/rewards/${REWARD_ID}`, () => HttpResponse.json(shown)),
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

  it('says in words that there is no such reward, with the way back, for an id that is none', async () => {
    server.use(http.get(`/api/admin/rewards/${REWARD_ID}`, () => HttpResponse.json({ error: { code: 'not_found', message: 'Premio richiesto non trovato', requestId: 'r' } }, { status: 404 })));
    renderWithProviders(
      <RewardDetailPage rewardId={REWARD_ID} listHref="/rewards" programs={[]} merchantsOfProgram={() => []} customerHref={(id) => `/customers/${id}`} />,
      { route: `/rewards/${REWARD_ID}`, user: { role: 'admin' } },
    );
    expect(await screen.findByRole('heading', { name: 'Premio non trovato', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Tutti i premi' })).toHaveAttribute('href', '/rewards');
    expect(screen.queryByText('Impossibile caricare i premi')).toBeNull();
  });

  it('names the reward in the browser’s tab while its page is shown (WCAG 2.4.2)', async () => {
    renderPage(() => batch({}));
    expect(await screen.findByRole('heading', { level: 1, name: gelato.name })).toBeInTheDocument();
    await waitFor(() => expect(document.title.startsWith(`${gelato.name} · `)).toBe(true));
  });

  it('leaves an open end of the validity unsaid instead of a dash: “fino al 30/06/2027”', async () => {
    renderPage(() => batch({}), reward({ validFrom: null }));
    expect(await screen.findByText('Validità: fino al 30/06/2027')).toBeInTheDocument();
  });

  it('names the codes’ counts, whose “disponibili” is not the reward’s Disponibilità', async () => {
    renderPage(() => batch({}));
    expect(await screen.findByText(/^Disponibilità: /)).toBeInTheDocument();
    expect(screen.getByText('Buoni: 0 disponibili · 0 assegnati · 0 usati')).toBeInTheDocument();
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
      // As typed: a count shows no thousands mark, so that no mark typed is ever read as one.
      expect(count).toHaveValue(typed);
    }
    expect(bodies).toEqual([]);
  });

  it('warns when the codes waiting exceed the stock', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    // The page says the reward's codes as it reads them after the batch: 20 waiting, 5 left.
    renderPage(() => batch({ created: 20, stock: { waiting: 20, left: 5 } }), reward({ stock: 5, vouchers: { available: 20, issued: 0, used: 0, expired: 0, void: 0 } }));
    await user.click(await screen.findByRole('button', { name: 'Genera' }));
    expect(await screen.findByText(/20 codici in attesa per una disponibilità di 5/)).toBeInTheDocument();
  });

  it('says one code waiting beyond the stock in the singular', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    renderPage(() => batch({ created: 1, stock: { waiting: 1, left: 0 } }), reward({ stock: 0, vouchers: { available: 1, issued: 0, used: 0, expired: 0, void: 0 } }));
    await user.click(await screen.findByRole('button', { name: 'Genera' }));
    expect(await screen.findByText('Attenzione: 1 codice in attesa per una disponibilità di 0. Non verrà assegnato finché non la aumenti.')).toBeInTheDocument();
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
    // A long code breaks inside the report's box instead of running out of it (measured at 1366 px in the browser).
    expect(screen.getByRole('alert')).toHaveStyle({ overflowWrap: 'anywhere' });
  });
});

describe('redeeming a reward the customer cannot afford', { timeout: 30_000 }, () => {
  it('says so in stamps as soon as the reward is chosen, and does not let it be sent', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const stampReward = reward({ id: '00000000-0000-4000-8000-0000000000b2', name: 'Caffè omaggio', costUnit: 'stamps', cost: 15, programName: 'Tessera Bar' });
    const posts = renderRedeemDialog({ rewards: [stampReward], membership: { programId: stampReward.programId, balance: 0, stamps: 8 }, answers: [] });
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText(/Premio/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Caffè omaggio/, hidden: true }));
    expect(await within(dialog).findByText('Il saldo è di 8 timbri: questo premio ne costa 15')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Riscatta' })).toBeDisabled();
    expect(posts).toEqual([]);
  });
});

const MERCHANT_ID = '00000000-0000-4000-8000-0000000000d1';

function voucher(overrides: Partial<Voucher>): Voucher {
  return {
    id: 11,
    rewardId: REWARD_ID,
    code: 'GELATO001',
    status: 'available',
    origin: 'generated',
    customerId: null,
    customerName: null,
    entryId: null,
    issuedAt: null,
    usedAt: null,
    usedMerchantId: null,
    voidedAt: null,
    createdAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

const apiRefusal = (code: string, message: string, status: number) => HttpResponse.json({ error: { code, message, requestId: 'r' } }, { status });

/** The page with `vouchers` listed; `answer` answers each void or use, in turn. */
function renderWithVouchers(vouchers: Voucher[], answers: (() => Response)[]) {
  const calls: { path: string; body: unknown }[] = [];
  const answerNext = async (request: Request) => {
    calls.push({ path: new URL(request.url).pathname, body: request.headers.get('content-type')?.includes('json') ? await request.json() : null });
    return answers[calls.length - 1]!();
  };
  server.use(
    http.get(`/api/admin/rewards/${REWARD_ID}`, () => HttpResponse.json(gelato)),
    http.get(`/api/admin/rewards/${REWARD_ID}/vouchers`, () => HttpResponse.json({ items: vouchers, total: vouchers.length, page: 1, pageSize: 25 })),
    http.post(`/api/admin/rewards/${REWARD_ID}/vouchers/:voucherId/void`, ({ request }) => answerNext(request)),
    http.post('/api/admin/vouchers/:code/use', ({ request }) => answerNext(request)),
  );
  renderWithProviders(
    <RewardDetailPage
      rewardId={REWARD_ID}
      listHref="/rewards"
      programs={[]}
      merchantsOfProgram={(programId) => (programId === gelato.programId ? [{ value: MERCHANT_ID, label: 'Bar Centrale' }] : [])}
      customerHref={(id) => `/customers/${id}`}
    />,
    { route: `/rewards/${REWARD_ID}`, user: { role: 'admin' } },
  );
  return calls;
}

describe('a reward’s vouchers: voided and used', { timeout: 30_000 }, () => {
  it('voids a code only after its confirmation, and says when the API refuses (a code used meanwhile) and when it is done', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderWithVouchers(
      [
        voucher({}),
        voucher({ id: 12, code: 'GELATO002', status: 'used', usedAt: '2026-11-10T10:00:00.000Z' }),
        voucher({ id: 13, code: 'GELATO003', status: 'issued', customerId: '00000000-0000-4000-8000-0000000000c1', customerName: 'Giulia Bianchi', issuedAt: '2026-11-09T10:00:00.000Z' }),
      ],
      [() => apiRefusal('voucher_used', 'Questo buono è già stato usato', 409), () => HttpResponse.json(voucher({ status: 'void' }))],
    );
    await screen.findByText('GELATO002');
    // A used code cannot be voided: no button on its row.
    expect(screen.queryByRole('button', { name: 'Annulla il buono GELATO002' })).toBeNull();

    // A code given to a customer: the points are not given back by voiding it.
    await user.click(screen.getByRole('button', { name: 'Annulla il buono GELATO003' }));
    let dialog = await screen.findByRole('dialog', { name: 'Annullare il buono GELATO003?' });
    expect(dialog).toHaveTextContent('Giulia Bianchi non potrà più usarlo. I punti non vengono restituiti');
    await user.click(within(dialog).getByRole('button', { name: 'Indietro' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Annulla il buono GELATO001' }));
    dialog = await screen.findByRole('dialog', { name: 'Annullare il buono GELATO001?' });
    expect(dialog).toHaveTextContent('Il codice non verrà più assegnato a nessun cliente.');
    await user.click(within(dialog).getByRole('button', { name: 'Indietro' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Annulla il buono GELATO001' }));
    dialog = await screen.findByRole('dialog', { name: 'Annullare il buono GELATO001?' });
    await user.click(within(dialog).getByRole('button', { name: 'Annulla il buono' }));
    expect(await screen.findByText(/Questo buono è già stato usato/)).toBeInTheDocument();
    expect(calls).toEqual([{ path: `/api/admin/rewards/${REWARD_ID}/vouchers/11/void`, body: null }]);

    await user.click(screen.getByRole('button', { name: 'Annulla il buono GELATO001' }));
    dialog = await screen.findByRole('dialog', { name: 'Annullare il buono GELATO001?' });
    await user.click(within(dialog).getByRole('button', { name: 'Annulla il buono' }));
    expect(await screen.findByText('Buono GELATO001 annullato')).toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });

  it('names the holder of a code an erasure voided "Cliente cancellato", not a blank', async () => {
    renderWithVouchers([voucher({ id: 14, code: 'GELATO004', status: 'void', customerId: '00000000-0000-4000-8000-0000000000c9', customerName: '', issuedAt: '2026-11-09T10:00:00.000Z' })], []);
    const row = (await screen.findByText('GELATO004')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Cliente cancellato' })).toHaveAttribute('href', '/customers/00000000-0000-4000-8000-0000000000c9');
  });

  it('uses a code at a merchant of the reward’s program, says a refusal in the API’s words, and empties the code once used', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const used = { code: 'GELATO001', status: 'used', usable: false, reason: null, reward: { id: REWARD_ID, name: 'Gelato', programId: gelato.programId }, customerId: null, issuedAt: null, usedAt: '2026-11-20T10:00:00.000Z', validFrom: null, validUntil: null };
    const calls = renderWithVouchers([], [() => apiRefusal('voucher_not_issued', 'Questo buono non è stato assegnato a un cliente', 409), () => HttpResponse.json(used)]);
    const code = await screen.findByRole('textbox', { name: /^Codice/ });
    const send = screen.getByRole('button', { name: 'Usa il buono' });
    await user.type(code, ' gelato001 ');
    // Not without the merchant where it is used.
    expect(send).toBeDisabled();
    await user.click(screen.getByLabelText(/Esercente/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true }));
    await user.click(send);
    expect(await screen.findByRole('alert')).toHaveTextContent(/Questo buono non è stato assegnato a un cliente/);
    expect(code).toHaveValue(' gelato001 ');

    await user.click(send);
    expect(await screen.findByText('Buono GELATO001 usato')).toBeInTheDocument();
    await waitFor(() => expect(code).toHaveValue(''));
    expect(screen.queryByText(/non è stato assegnato/)).toBeNull();
    expect(calls).toEqual([
      { path: '/api/admin/vouchers/gelato001/use', body: { merchantId: MERCHANT_ID } },
      { path: '/api/admin/vouchers/gelato001/use', body: { merchantId: MERCHANT_ID } },
    ]);
  });

  it('imports a CSV of codes only after a dry run of that very file', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const bodies: string[] = [];
    server.use(
      http.get(`/api/admin/rewards/${REWARD_ID}`, () => HttpResponse.json(gelato)),
      http.get(`/api/admin/rewards/${REWARD_ID}/vouchers`, () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.post(`/api/admin/rewards/${REWARD_ID}/vouchers`, async ({ request }) => {
        const dryRun = new URL(request.url).searchParams.get('dryRun') === 'true';
        // jsdom sends the file part as an empty "blob" (see imports-page.test.tsx): its presence is checked here.
        const hasFile = /name="file"; filename=/.test(await request.text());
        bodies.push(`${dryRun ? 'dry run' : 'import'}${hasFile ? ' with its file' : ''}`);
        return HttpResponse.json(batch({ dryRun, created: 2 }), { status: 201 });
      }),
    );
    renderWithProviders(
      <RewardDetailPage rewardId={REWARD_ID} listHref="/rewards" programs={[]} merchantsOfProgram={() => []} customerHref={(id) => `/customers/${id}`} />,
      { route: `/rewards/${REWARD_ID}`, user: { role: 'admin' } },
    );
    const input = (await screen.findByText('File CSV')).closest('div')!.parentElement!.querySelector('input[type="file"]') as HTMLInputElement;
    const importButton = screen.getByRole('button', { name: 'Importa' });
    await user.upload(input, new File(['codice\nA1\nA2\n'], 'codici.csv', { type: 'text/csv' }));
    expect(importButton).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Prova senza importare' }));
    expect(await screen.findByText('Prova: 2 codici da importare')).toBeInTheDocument();
    expect(importButton).toBeEnabled();

    // Another file: its own dry run first.
    await user.upload(input, new File(['codice\nB1\n'], 'altri.csv', { type: 'text/csv' }));
    expect(importButton).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Prova senza importare' }));
    await waitFor(() => expect(importButton).toBeEnabled());
    await user.click(importButton);
    // The report replaces the dry run's, and a toast says it too.
    await waitFor(() => expect(screen.getAllByText('2 codici importati')).toHaveLength(2));
    expect(screen.queryByText('Prova: 2 codici da importare')).toBeNull();
    expect(bodies).toEqual(['dry run with its file', 'dry run with its file', 'import with its file']);
  });
});

describe('a reward’s counts after its codes change', { timeout: 30_000 }, () => {
  it('says the codes waiting as they are after a void, not as the last batch left them', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    // The server's reward: 5 units of stock; 6 codes waiting once generated, 5 once one is voided.
    let available = 0;
    const counts = () => ({ available, issued: 0, used: 0, expired: 0, void: available === 5 ? 1 : 0 });
    server.use(
      http.get(`/api/admin/rewards/${REWARD_ID}`, () => HttpResponse.json(reward({ stock: 5, vouchers: counts() }))),
      http.get(`/api/admin/rewards/${REWARD_ID}/vouchers`, () =>
        HttpResponse.json({ items: available === 6 ? [voucher({})] : [voucher({ status: 'void' })], total: 1, page: 1, pageSize: 25 }),
      ),
      http.post(`/api/admin/rewards/${REWARD_ID}/vouchers`, () => {
        available = 6;
        return HttpResponse.json(batch({ created: 6, stock: { waiting: 6, left: 5 } }), { status: 201 });
      }),
      http.post(`/api/admin/rewards/${REWARD_ID}/vouchers/:voucherId/void`, () => {
        available = 5;
        return HttpResponse.json(voucher({ status: 'void' }));
      }),
    );
    renderWithProviders(
      <RewardDetailPage rewardId={REWARD_ID} listHref="/rewards" programs={[]} merchantsOfProgram={() => []} customerHref={(id) => `/customers/${id}`} />,
      { route: `/rewards/${REWARD_ID}`, user: { role: 'admin' } },
    );
    await user.click(await screen.findByRole('button', { name: 'Genera' }));
    expect(await screen.findByText(/6 codici in attesa per una disponibilità di 5/)).toBeInTheDocument();
    expect(await screen.findByText(/Buoni: 6 disponibili/)).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Annulla il buono GELATO001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Annullare il buono GELATO001?' });
    await user.click(within(dialog).getByRole('button', { name: 'Annulla il buono' }));
    expect(await screen.findByText(/Buoni: 5 disponibili/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/codici in attesa per una disponibilità/)).toBeNull());
  });
});
