import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { CUSTOMER_ID, MERCHANT_ID, entry, membership, program } from '../testing/ledger-fixtures.ts';
import { LedgerEntryDialog } from './ledger-entry-dialog.tsx';
import { LedgerPage } from './ledger-page.tsx';
import { MembershipsPanel } from './memberships-panel.tsx';

const admin = { role: 'admin' as const };
const customer = { id: CUSTOMER_ID, label: 'Giulia Bianchi · 8012345678903' };
const LONG_REASON = 'Rettifica per scontrino emesso due volte dalla cassa numero tre il giorno di apertura straordinaria';
const names = { program: () => 'Circuito Bergamo', merchant: () => 'Bar Centrale', customerHref: (id: string) => `/customers/${id}` };

function renderDialog(kind: 'purchase' | 'adjust') {
  return renderWithProviders(
    <LedgerEntryDialog
      kind={kind}
      onClose={() => undefined}
      customer={customer}
      renderCustomerPicker={() => null}
      programs={[program()]}
      merchantOptions={[{ value: MERCHANT_ID, label: 'Bar Centrale' }]}
    />,
    { route: '/', user: admin },
  );
}

// Dialogs with several steps take seconds on a loaded machine: generous time per test, no speed asserted.
describe('ledger actions and Movimenti', { timeout: 30_000 }, () => {
  it('shows the points a purchase earns before confirming, and retries a lost answer with the same Idempotency-Key', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const keys: string[] = [];
    const bodies: unknown[] = [];
    server.use(
      http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })),
      http.post('/api/admin/ledger', async ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key') ?? '');
        bodies.push(await request.json());
        if (keys.length === 1) return HttpResponse.json({ error: { code: 'unavailable', message: 'down', requestId: 'r' } }, { status: 503 });
        return HttpResponse.json({ entry: entry({ points: 74 }), membership: { ...membership(), balance: 1274 } }, { status: 201 });
      }),
    );
    renderDialog('purchase');
    const dialog = await screen.findByRole('dialog', { name: 'Registra acquisto' });
    await user.type(within(dialog).getByRole('textbox', { name: /Importo/ }), '24,50');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    // 24,50 € × 1,5 punti × 2 (livello Oro) = 73,5 → 73, rounded down once.
    expect(await within(dialog).findByText('Il cliente riceverà 73 punti')).toBeInTheDocument();
    expect(within(dialog).getByText('24,50 €')).toBeInTheDocument();
    // A points program: its balance in points, no "0 timbri".
    expect(within(dialog).getByText('Saldo attuale: 1.200 punti')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Conferma' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("non verrà registrata due volte");
    await user.click(within(dialog).getByRole('button', { name: 'Conferma' }));
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[0]).toMatch(/^web-/);
    expect(keys[1]).toBe(keys[0]);
    expect(bodies[1]).toEqual({ customerId: CUSTOMER_ID, programId: program().id, kind: 'purchase', amountCents: 2450 });
  });

  it('requires a reason for an adjustment and sends the signed points', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let body: unknown = null;
    server.use(
      http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })),
      http.post('/api/admin/ledger', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ entry: entry({ kind: 'adjust', points: -50 }), membership: { ...membership(), balance: 1150 } }, { status: 201 });
      }),
    );
    renderDialog('adjust');
    const dialog = await screen.findByRole('dialog', { name: 'Rettifica punti' });
    await user.type(within(dialog).getByRole('textbox', { name: /Punti \(con segno/ }), '-50');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    expect(await within(dialog).findByText('Motivo è obbligatorio')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'Errore di cassa');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    expect(await within(dialog).findByText('Rettifica di -50 punti')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Conferma' }));
    await waitFor(() => expect(body).toEqual({ customerId: CUSTOMER_ID, programId: program().id, kind: 'adjust', points: -50, reason: 'Errore di cassa' }));
  });

  it('says one point in the singular: "Rettifica di -1 punto"', async () => {
    server.use(http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })));
    const user = userEvent.setup();
    renderDialog('adjust');
    const dialog = await screen.findByRole('dialog', { name: 'Rettifica punti' });
    await user.type(within(dialog).getByRole('textbox', { name: /Punti \(con segno/ }), '-1');
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'Errore di cassa');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    expect(await within(dialog).findByText('Rettifica di -1 punto')).toBeInTheDocument();
  });

  it('filters the ledger through the URL and reverses an entry only after confirming with a reason', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const seen: URLSearchParams[] = [];
    let reversal: { body: unknown; key: string | null } | null = null;
    server.use(
      http.get('/api/admin/ledger', ({ request }) => {
        seen.push(new URL(request.url).searchParams);
        return HttpResponse.json({
          items: [
            entry(),
            entry({ id: 40, points: 12, customer: null, customerId: '7a1c2b9e-1d2a-4b3c-8d4e-5f6a7b8c9d0e' }),
            entry({ id: 39, points: 0, stamps: 2, amountCents: null, reason: LONG_REASON, customer: { firstName: 'Maria Antonietta Benedetta', lastName: 'Della Valle Santacroce', cardNumber: '2790000000026' } }),
          ],
          total: 3,
          page: 1,
          pageSize: 25,
          totalIsCapped: false,
          sums: { points: 49, stamps: 0 },
        });
      }),
      http.post('/api/admin/ledger/41/reversal', async ({ request }) => {
        reversal = { body: await request.json(), key: request.headers.get('Idempotency-Key') };
        return HttpResponse.json({ entry: entry({ id: 42, kind: 'reversal', points: -37, reversesId: 41 }), membership: membership() }, { status: 201 });
      }),
    );
    renderWithProviders(
      <LedgerPage programOptions={[{ value: program().id, label: 'Circuito Bergamo' }]} merchantOptions={[]} names={names} customerFilter={() => null} />,
      { route: `/ledger?kind=earn&programId=${program().id}`, user: admin },
    );
    const row = (await screen.findByText('+37 pt')).closest('tr')!;
    expect(within(row).getByText('24,50 €')).toBeInTheDocument();
    // The day, the time under it, both in one line on hover.
    expect(within(row).getByTitle('21/11/2026, 11:15')).toHaveTextContent('21/11/202611:15');
    // Whose entry: the name (to the customer's page) and the card number, not an id.
    expect(within(row).getByRole('link', { name: 'Giulia Bianchi' })).toHaveAttribute('href', `/customers/${CUSTOMER_ID}`);
    expect(within(row).getByText('2790000000018')).toBeInTheDocument();
    // An erased customer's entries stay, under a name that says so.
    const erased = screen.getByText('+12 pt').closest('tr')!;
    expect(within(erased).getByRole('link', { name: 'Cliente cancellato' })).toHaveAttribute('href', '/customers/7a1c2b9e-1d2a-4b3c-8d4e-5f6a7b8c9d0e');
    // Long texts on one line each, whole on hover (issue 31: the table fits 1366 px whatever the names);
    // points and stamps share a column, with their unit.
    const long = screen.getByText('+2 timbri').closest('tr')!;
    expect(within(long).getByTitle('Maria Antonietta Benedetta Della Valle Santacroce')).toHaveTextContent('Maria Antonietta Benedetta Della Valle Santacroce');
    expect(within(long).getByTitle(LONG_REASON)).toHaveStyle({ whiteSpace: 'nowrap', textOverflow: 'ellipsis' });
    expect(within(long).getByTitle('Bar Centrale')).toBeInTheDocument();
    // What the filtered entries add up to (a dashboard figure links here and reads the same).
    expect(screen.getByTestId('ledger-totals')).toHaveTextContent('3 movimenti · punti +49 · timbri 0');
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ kind: 'earn', programId: program().id, sort: 'createdAt', order: 'desc' });

    await user.click(within(row).getByRole('button', { name: 'Storna il movimento 41' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stornare questo movimento?' });
    await user.click(within(dialog).getByRole('button', { name: 'Storna' }));
    expect(await within(dialog).findByText('Motivo dello storno è obbligatorio')).toBeInTheDocument();
    expect(reversal).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo dello storno/ }), 'Scontrino annullato');
    await user.click(within(dialog).getByRole('button', { name: 'Storna' }));
    await waitFor(() => expect(reversal).not.toBeNull());
    expect(reversal!.body).toEqual({ reason: 'Scontrino annullato' });
    expect(reversal!.key).toMatch(/^web-/);
  });
});

describe('the memberships panel on the customer page', () => {
  it('says when a stamp card holds a reward, and lists no expiring points for it', async () => {
    server.use(
      http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () =>
        HttpResponse.json({
          items: [
            membership({ id: 'full', programName: 'Tessera Bar', programType: 'stamps', stamps: 12, stampsRequired: 10, tier: null, expiring: [], expiringSoon: 0, tierChanges: [] }),
            membership({ id: 'half', programName: 'Tessera Salone', programType: 'stamps', stamps: 4, stampsRequired: 8, tier: null, expiring: [], expiringSoon: 0, tierChanges: [] }),
          ],
        }),
      ),
    );
    renderWithProviders(<MembershipsPanel customerId={CUSTOMER_ID} />, { route: '/', user: admin });
    const full = await screen.findByRole('region', { name: 'Tessera Bar' });
    expect(within(full).getByTestId('membership-stamps')).toHaveTextContent('12 di 10');
    expect(within(full).getByText('1 premio pronto')).toBeInTheDocument();
    const half = screen.getByRole('region', { name: 'Tessera Salone' });
    expect(within(half).queryByText(/premi/)).not.toBeInTheDocument();
    expect(within(half).queryByText('Nessun punto in scadenza')).not.toBeInTheDocument();
  });

  it('shows the points expiring in the next 30 days and the tier changes', async () => {
    server.use(
      http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () =>
        HttpResponse.json({ items: [membership({ expiringSoon: 150, tierChanges: [{ from: 'Argento', to: 'Oro', at: '2026-10-02T10:00:00.000Z' }, { from: null, to: 'Argento', at: '2026-03-01T10:00:00.000Z' }] })] }),
      ),
    );
    renderWithProviders(<MembershipsPanel customerId={CUSTOMER_ID} />, { route: '/', user: admin });
    expect(await screen.findByText('In scadenza nei prossimi 30 giorni: 150 punti')).toBeInTheDocument();
    expect(screen.getByText('Livello: Argento → Oro il 02/10/2026')).toBeInTheDocument();
    expect(screen.getByText('Livello: nessuno → Argento il 01/03/2026')).toBeInTheDocument();
  });
});

describe('the balance a ledger summary says', { timeout: 30_000 }, () => {
  it('names the stamps of a stamp card, in English too', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const stampCard = program({ type: 'stamps', pointsPerEuro: null, stampsRequired: 10, tiers: [] });
    server.use(http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership({ programType: 'stamps', balance: 0, stamps: 1, stampsRequired: 10 })] })));
    renderWithProviders(
      <LedgerEntryDialog kind="adjust" onClose={() => undefined} customer={customer} renderCustomerPicker={() => null} programs={[stampCard]} merchantOptions={[]} />,
      { route: '/', user: admin, language: 'en' },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Adjust points' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Stamps/ }), '2');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Card lost');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('Current balance: 1 stamp')).toBeInTheDocument();
  });
});

describe('the focus when a ledger dialog opens', { timeout: 30_000 }, () => {
  function Opener({ kind, programs }: { kind: 'purchase' | 'adjust'; programs: ReturnType<typeof program>[] }) {
    const [isOpen, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Apri
        </button>
        <LedgerEntryDialog kind={isOpen ? kind : null} onClose={() => setOpen(false)} customer={customer} renderCustomerPicker={() => null} programs={programs} merchantOptions={[]} />
      </>
    );
  }

  it('is on the amount of a purchase, not on the ✕; Esc closes and gives it back to the opener', async () => {
    server.use(http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })));
    const user = userEvent.setup();
    renderWithProviders(<Opener kind="purchase" programs={[program()]} />, { route: '/', user: admin });
    const opener = screen.getByRole('button', { name: 'Apri' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Registra acquisto' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: /Importo/ })));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('is on the program when there is one to choose, and on the points of an adjustment when there is not', async () => {
    server.use(http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })));
    const user = userEvent.setup();
    const other = program({ id: '22222222-2222-4222-8222-222222222222', name: 'Bar Centrale' });
    const first = renderWithProviders(<Opener kind="purchase" programs={[program(), other]} />, { route: '/', user: admin });
    await user.click(screen.getByRole('button', { name: 'Apri' }));
    const purchase = await screen.findByRole('dialog', { name: 'Registra acquisto' });
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName(/^Programma/));
    expect(purchase).toContainElement(document.activeElement as HTMLElement);
    first.unmount();

    renderWithProviders(<Opener kind="adjust" programs={[program()]} />, { route: '/', user: admin });
    await user.click(screen.getByRole('button', { name: 'Apri' }));
    const adjust = await screen.findByRole('dialog', { name: 'Rettifica punti' });
    await waitFor(() => expect(document.activeElement).toBe(within(adjust).getByRole('textbox', { name: /^Punti/ })));
  });
});

describe('a social bonus in Movimenti', { timeout: 30_000 }, () => {
  const page = (items: ReturnType<typeof entry>[]) =>
    http.get('/api/admin/ledger', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25, totalIsCapped: false, sums: { points: 0, stamps: 0 } }));
  const bonus = (overrides: Partial<ReturnType<typeof entry>>) =>
    entry({ source: 'social', merchantId: null, amountCents: null, points: 15, reason: 'share #5', proof: { id: 5, kind: 'share' }, ...overrides });
  const withProofs = { ...names, proofHref: (proof: { kind: string }, card: string) => `/approvals?q=${card}&kind=${proof.kind}&status=approved` };

  it('is named by its proof, not by the code its entry keeps, and leads to the proof in Approvazioni', async () => {
    server.use(page([bonus({}), bonus({ id: 40, points: 40, reason: 'Bonus recensione (prova n. 6)', proof: { id: 6, kind: 'review' }, customer: null })]));
    renderWithProviders(<LedgerPage programOptions={[]} merchantOptions={[]} names={withProofs} customerFilter={() => null} />, { route: '/ledger', user: admin });
    const row = (await screen.findByText('+15 pt')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Bonus condivisione social (prova n. 5)' })).toHaveAttribute('href', '/approvals?q=2790000000018&kind=share&status=approved');
    expect(screen.queryByText('share #5')).not.toBeInTheDocument();
    // An erased customer's bonus is named, with no search by a card that is gone.
    const erased = screen.getByText('+40 pt').closest('tr')!;
    expect(within(erased).getByText('Bonus recensione (prova n. 6)')).toBeInTheDocument();
    expect(within(erased).queryByRole('link', { name: /Bonus/ })).not.toBeInTheDocument();
  });

  it('reads in English for an English reader', async () => {
    server.use(page([bonus({ proof: { id: 5, kind: 'checkIn' }, reason: 'checkIn #5' })]));
    renderWithProviders(<LedgerPage programOptions={[]} merchantOptions={[]} names={withProofs} customerFilter={() => null} />, { route: '/ledger', user: admin, language: 'en' });
    expect(await screen.findByRole('link', { name: 'Check-in bonus (proof #5)' })).toBeInTheDocument();
  });
});

describe('reasons the platform wrote and who made an entry, in Movimenti', { timeout: 30_000 }, () => {
  const page = (items: ReturnType<typeof entry>[]) =>
    http.get('/api/admin/ledger', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25, totalIsCapped: false, sums: { points: 0, stamps: 0 } }));
  // As the API lists them: the stored Italian text, and what it says as data.
  const entries = [
    entry({ id: 1, source: 'referral', points: 20, reason: 'Bonus presentazione (invitato)', systemReason: { kind: 'referralReferee' }, createdBy: null, createdByLabel: 'system', createdByName: null }),
    entry({ id: 2, source: 'referral', points: 50, reason: 'Bonus presentazione (presentatore)', systemReason: { kind: 'referralReferrer' }, createdBy: null, createdByLabel: 'system', createdByName: null }),
    entry({ id: 3, source: 'birthday', points: 30, reason: 'Bonus compleanno 2025', systemReason: { kind: 'birthday', year: 2025 }, createdBy: null, createdByLabel: 'system', createdByName: null }),
    entry({ id: 4, points: 24, reason: 'Scontrino R-77', systemReason: { kind: 'receipt', receipt: 'R-77' }, createdBy: null, createdByLabel: 'API: Cassa 1 (sfk_ab12…)', createdByName: null }),
    entry({ id: 5, kind: 'adjust', source: 'manual', points: 100, reason: 'Saldo iniziale', systemReason: { kind: 'openingBalance' }, createdByLabel: 'import saldi.csv' }),
    entry({ id: 6, kind: 'adjust', source: 'manual', points: 5, reason: 'Omaggio' }),
  ];
  const render = (language: 'it' | 'en') => {
    server.use(page(entries));
    renderWithProviders(<LedgerPage programOptions={[]} merchantOptions={[]} names={names} customerFilter={() => null} />, { route: '/ledger', user: admin, language });
  };
  const reasonCell = (points: string) => within(screen.getByText(points).closest('tr')!).getAllByRole('cell').at(-2)!;

  it('says them in Italian and names the operator, the system and a key', async () => {
    render('it');
    await screen.findByText('+20 pt');
    expect(reasonCell('+20 pt')).toHaveTextContent('Bonus presentazione (invitato)Sistema');
    expect(reasonCell('+50 pt')).toHaveTextContent('Bonus presentazione (presentatore)Sistema');
    expect(reasonCell('+30 pt')).toHaveTextContent('Bonus compleanno 2025Sistema');
    expect(reasonCell('+24 pt')).toHaveTextContent('Scontrino R-77API: Cassa 1 (sfk_ab12…)');
    expect(reasonCell('+100 pt')).toHaveTextContent('Saldo inizialeAnna Admin');
    // A typed reason as typed; the operator by name, the e-mail on hover.
    expect(reasonCell('+5 pt')).toHaveTextContent('OmaggioAnna Admin');
    expect(within(reasonCell('+5 pt')).getByTitle('Anna Admin (admin@demo.test)')).toHaveTextContent('Anna Admin');
    expect(screen.queryByText('admin@demo.test')).not.toBeInTheDocument();
    expect(screen.queryByText('system')).not.toBeInTheDocument();
  });

  it('says them in English for an English reader, and keeps a typed reason as typed', async () => {
    render('en');
    // Each reason with who made the entry under it.
    const cellOf = async (reason: string) => (await screen.findByText(reason)).closest('td')!;
    expect(await cellOf('Referral bonus (invited)')).toHaveTextContent('Referral bonus (invited)System');
    expect(await cellOf('Referral bonus (referrer)')).toHaveTextContent('Referral bonus (referrer)System');
    expect(await cellOf('Birthday bonus 2025')).toHaveTextContent('Birthday bonus 2025System');
    expect(await cellOf('Receipt R-77')).toHaveTextContent('Receipt R-77API: Cassa 1 (sfk_ab12…)');
    expect(await cellOf('Opening balance')).toHaveTextContent('Opening balanceAnna Admin');
    expect(await cellOf('Omaggio')).toHaveTextContent('OmaggioAnna Admin');
    expect(screen.queryByText(/Bonus presentazione|Bonus compleanno|Scontrino|Saldo iniziale|^Sistema$/)).not.toBeInTheDocument();
  });
});
