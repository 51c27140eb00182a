import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { ProgramsPage } from './programs-page.tsx';

const admin = { role: 'admin' as const };
const MERCHANT = '0d7f5c2e-8a31-4c1b-9a57-3f2b1e0c9d11';

// Forms with many fields take seconds on a loaded machine: generous time per test, no speed asserted.
describe('Programmi fedeltà', { timeout: 30_000 }, () => {
  it('creates a points program with tiers, checking the contract rules first', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let body: Record<string, unknown> | null = null;
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.post('/api/admin/programs', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ error: { code: 'validation', message: 'x', fields: [{ field: 'tiers.1.minPoints', message: 'Punti minimi non è valido' }], requestId: 'r' } }, { status: 400 });
      }),
    );
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: '/programs?program=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo programma' });
    await user.click(within(drawer).getByRole('button', { name: 'Crea programma' }));
    expect(await within(drawer).findByText('Nome è obbligatorio')).toBeInTheDocument();
    expect(body).toBeNull();

    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Circuito Centro');
    await user.click(within(drawer).getByLabelText(/Esercenti del circuito/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true }));
    const rate = within(drawer).getByRole('textbox', { name: /^Punti per euro/ });
    await user.clear(rate);
    await user.type(rate, '1,5');
    await user.click(within(drawer).getByRole('button', { name: 'Aggiungi livello' }));
    await user.click(within(drawer).getByRole('button', { name: 'Aggiungi livello' }));
    await user.type(within(drawer).getByRole('textbox', { name: 'Nome del livello 1' }), 'Base');
    await user.type(within(drawer).getByRole('textbox', { name: 'Nome del livello 2' }), 'Oro');
    await user.type(within(drawer).getByRole('textbox', { name: 'Punti minimi del livello 2' }), '1000');
    const multiplier = within(drawer).getByRole('textbox', { name: 'Moltiplicatore del livello 2' });
    await user.clear(multiplier);
    await user.type(multiplier, '2');
    await user.click(within(drawer).getByRole('button', { name: 'Crea programma' }));
    await waitFor(() => expect(body).not.toBeNull());
    expect(body).toMatchObject({
      name: 'Circuito Centro',
      type: 'points',
      merchantIds: [MERCHANT],
      status: 'draft',
      pointsPerEuro: 1.5,
      minSpendCents: null,
      stampsRequired: null,
      tiers: [
        { name: 'Base', minPoints: 0, multiplier: 1 },
        { name: 'Oro', minPoints: 1000, multiplier: 2 },
      ],
      expiry: { policy: 'never', days: null },
    });
    // The server's 400 lands on the named tier field.
    expect(await within(drawer).findByText('Punti minimi non è valido')).toBeInTheDocument();
  });

  it.each([
    ['an id that is no program', '0d7f5c2e-8a31-4c1b-9a57-3f2b1e0c9daa', 404, { code: 'not_found', message: 'Programma richiesto non trovato' }],
    ['an address that holds no id', 'abc', 400, { code: 'validation', message: 'Id non è valido', fields: [{ field: 'id', message: 'Id non è valido' }] }],
  ])('says in words that there is no such program, for %s, in a drawer titled by the entity alone', async (_case, id, status, error) => {
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.get(`/api/admin/programs/${id}`, () => HttpResponse.json({ error: { ...error, requestId: 'r' } }, { status })),
    );
    renderWithProviders(<ProgramsPage merchantOptions={[]} renderCustomerPicker={() => null} />, { route: `/programs?program=${id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Programma' });
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent('Programma non trovato');
    expect(alert).toHaveTextContent("Nessun programma a questo indirizzo: il link è sbagliato o il programma non c'è più.");
    expect(within(drawer).queryByText(error.message)).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Modifica programma' })).toBeNull();
  });

  it('reads "1.5" and "12.50" as 1,5 and 12,50 €, either mark being the decimals, never 15 and 1.250 €', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let body: Record<string, unknown> | null = null;
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.post('/api/admin/programs', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ error: { code: 'validation', message: 'x', requestId: 'r' } }, { status: 400 });
      }),
    );
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: '/programs?program=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo programma' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Circuito Centro');
    await user.click(within(drawer).getByLabelText(/Esercenti del circuito/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true }));
    const rate = within(drawer).getByRole('textbox', { name: /^Punti per euro/ });
    await user.clear(rate);
    await user.type(rate, '1.5');
    expect(rate).toHaveValue('1,5');
    const minSpend = within(drawer).getByRole('textbox', { name: /^Spesa minima/ });
    await user.type(minSpend, '12.50');
    expect(minSpend).toHaveValue('12,50');
    await user.click(within(drawer).getByRole('button', { name: 'Crea programma' }));
    await waitFor(() => expect(body).not.toBeNull());
    expect(body).toMatchObject({ pointsPerEuro: 1.5, minSpendCents: 1250 });
  });

  it('keeps a third decimal of the minimum spend as typed and refuses it by name, never cutting it to cents', async () => {
    const user = userEvent.setup();
    let isSent = false;
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.post('/api/admin/programs', () => {
        isSent = true;
        return HttpResponse.json({ error: { code: 'validation', message: 'x', requestId: 'r' } }, { status: 400 });
      }),
    );
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: '/programs?program=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo programma' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Circuito Centro');
    await user.click(within(drawer).getByLabelText(/Esercenti del circuito/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true }));
    const minSpend = within(drawer).getByRole('textbox', { name: /^Spesa minima/ });
    await user.type(minSpend, '12,345');
    expect(minSpend).toHaveValue('12,345');
    expect(within(drawer).getByText('Spesa minima: al massimo due decimali')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Crea programma' }));
    await waitFor(() => expect(minSpend).toHaveFocus());
    expect(minSpend).toHaveAttribute('aria-invalid', 'true');
    expect(isSent).toBe(false);
  });

  it('takes the circuit\'s merchants from the keyboard: the list stays closed on focus, ArrowDown opens it on the first, Enter picks it', async () => {
    const user = userEvent.setup();
    server.use(http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })));
    const merchantOptions = [
      { value: MERCHANT, label: 'Bar Centrale' },
      { value: '00000000-0000-4000-8000-0000000000b2', label: 'Forno Rossi' },
    ];
    renderWithProviders(<ProgramsPage merchantOptions={merchantOptions} renderCustomerPicker={() => null} />, { route: '/programs?program=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo programma' });
    const merchants = within(drawer).getByLabelText(/Esercenti del circuito/, { selector: 'input' });
    await waitFor(() => expect(within(drawer).getByRole('textbox', { name: /^Nome/ })).toHaveFocus());
    for (let presses = 0; presses < 10 && document.activeElement !== merchants; presses += 1) await user.tab();
    expect(merchants).toHaveFocus();
    expect(merchants).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('option', { name: 'Bar Centrale', hidden: true })).toBeNull();
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true })).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{Enter}');
    expect(within(drawer).getByText('Bar Centrale', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    // Closed and opened again, the list is on the chosen merchant; ArrowDown moves on from it.
    await user.keyboard('{Escape}');
    expect(merchants).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true })).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(within(drawer).getByText('Forno Rossi', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
  });

  it('keeps a negative number as typed and names the field, rather than turning it into 0', async () => {
    const user = userEvent.setup();
    server.use(http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })));
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: '/programs?program=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo programma' });
    const rate = within(drawer).getByRole('textbox', { name: /^Punti per euro/ });
    await user.clear(rate);
    await user.type(rate, '-5');
    await user.tab();
    expect(rate).toHaveValue('-5');
    await user.click(within(drawer).getByRole('button', { name: 'Crea programma' }));
    expect(await within(drawer).findByText(/^Punti per euro deve essere/)).toBeInTheDocument();
  });

  it('brings the first field in error into view when a submit is refused: the merchants, not the button', async () => {
    const user = userEvent.setup();
    server.use(http.get('/api/admin/programs', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })));
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: '/programs?program=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo programma' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Circuito Centro');
    await user.click(within(drawer).getByRole('button', { name: 'Crea programma' }));
    const merchants = within(drawer).getByLabelText(/Esercenti del circuito/, { selector: 'input' });
    await waitFor(() => expect(merchants).toHaveFocus());
    expect(merchants).toHaveAttribute('aria-invalid', 'true');
    // The list stays closed, off the field's text: it opened over it on the form's focus.
    expect(within(drawer).getByText('Esercenti sono obbligatori')).toBeVisible();
    expect(merchants).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('option', { name: 'Bar Centrale' })).toBeNull();
    // A person's click still opens it.
    await user.click(merchants);
    expect(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true })).toBeInTheDocument();
  });

  it('asks before Esc throws away a changed name and rules, also from the other tab; unchanged, Esc closes at once', async () => {
    const user = userEvent.setup();
    const program = {
      id: 'a1a1a1a1-0000-4000-8000-000000000001', name: 'Tessera Salone Lucia', type: 'points', merchantIds: [MERCHANT], status: 'active',
      pointsPerEuro: 1, minSpendCents: null, stampsRequired: null, maxStampsPerDay: null, maxStampsPerTransaction: null, tiers: [], tierWindow: 'rolling12',
      expiry: { policy: 'never', days: null }, bonuses: { birthday: { points: null, capPerMonth: null }, referral: { points: null, capPerMonth: null }, review: { points: null, capPerMonth: null }, social: { points: null, capPerMonth: null } },
      walletBackgroundColor: null, walletForegroundColor: null, walletLogo: null, terms: 'Regolamento vecchio', version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    };
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [program], total: 1, page: 1, pageSize: 25 })),
      http.get(`/api/admin/programs/${program.id}`, () => HttpResponse.json(program)),
      http.get(`/api/admin/programs/${program.id}/service-emails`, () => HttpResponse.json({ items: [] })),
    );
    const { router } = renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: `/programs?program=${program.id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica programma' });
    const name = await within(drawer).findByRole('textbox', { name: /^Nome/ });
    await user.clear(name);
    await user.type(name, 'Tessera Lucia');
    // The other tab keeps the edits (and the question).
    await user.click(within(drawer).getByRole('tab', { name: 'Messaggi automatici' }));
    await user.click(within(drawer).getByRole('tab', { name: 'Programma' }));
    expect(within(drawer).getByRole('textbox', { name: /^Nome/ })).toHaveValue('Tessera Lucia');

    await user.keyboard('{Escape}');
    const warning = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(warning).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scartare le modifiche?' })).not.toBeInTheDocument());
    expect(router.state.location.search).toBe(`?program=${program.id}`);
    expect(within(drawer).getByRole('textbox', { name: /^Nome/ })).toHaveValue('Tessera Lucia');

    await user.keyboard('{Escape}');
    const again = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(again).getByRole('button', { name: 'Scarta le modifiche' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Modifica programma' })).not.toBeInTheDocument());

    await router.navigate(`/programs?program=${program.id}`);
    const reopened = await screen.findByRole('dialog', { name: 'Modifica programma' });
    expect(await within(reopened).findByRole('textbox', { name: /^Nome/ })).toHaveValue('Tessera Salone Lucia');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('dialog', { name: 'Scartare le modifiche?' })).not.toBeInTheDocument();
  });

  it('after an edit conflict, reloads the program keeping the name typed and the terms changed meanwhile, and saves on the fresh version', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const opened = {
      id: 'a1a1a1a1-0000-4000-8000-000000000003', name: 'Tessera Salone Lucia', type: 'points', merchantIds: [MERCHANT], status: 'active',
      pointsPerEuro: 1, minSpendCents: null, stampsRequired: null, maxStampsPerDay: null, maxStampsPerTransaction: null, tiers: [], tierWindow: 'rolling12',
      expiry: { policy: 'never', days: null }, bonuses: Object.fromEntries(['referrer', 'referee', 'share', 'review', 'checkIn', 'birthday'].map((kind) => [kind, { points: 0, capPerMonth: 0 }])),
      walletBackgroundColor: null, walletForegroundColor: null, walletLogo: null, terms: 'Regolamento vecchio', version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    };
    let stored = opened;
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [stored], total: 1, page: 1, pageSize: 25 })),
      http.get(`/api/admin/programs/${opened.id}`, () => HttpResponse.json(stored)),
      http.get(`/api/admin/programs/${opened.id}/service-emails`, () => HttpResponse.json({ items: [] })),
      http.patch(`/api/admin/programs/${opened.id}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        if (body.version !== stored.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } }, { status: 409 });
        }
        stored = { ...stored, ...(body as Partial<typeof stored>), version: stored.version + 1 };
        return HttpResponse.json(stored);
      }),
    );
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: `/programs?program=${opened.id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica programma' });
    const name = await within(drawer).findByRole('textbox', { name: /^Nome/ });
    stored = { ...opened, terms: 'Regolamento nuovo', version: 2 };
    await user.clear(name);
    await user.type(name, 'Tessera Lucia');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await user.click(within(await within(drawer).findByRole('alert')).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await within(drawer).findByRole('status')).toHaveTextContent('ora «Regolamento nuovo»');
    expect(within(drawer).getByRole('textbox', { name: /^Nome/ })).toHaveValue('Tessera Lucia');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toMatchObject({ name: 'Tessera Lucia', terms: 'Regolamento nuovo', version: 2 });
  });

  it('puts the focus on the name once the program has loaded, not on ✕', async () => {
    const program = {
      id: 'a1a1a1a1-0000-4000-8000-000000000002', name: 'Tessera Salone Lucia', type: 'points', merchantIds: [MERCHANT], status: 'active',
      pointsPerEuro: 1, minSpendCents: null, stampsRequired: null, maxStampsPerDay: null, maxStampsPerTransaction: null, tiers: [], tierWindow: 'rolling12',
      expiry: { policy: 'never', days: null }, bonuses: { birthday: { points: null, capPerMonth: null }, referral: { points: null, capPerMonth: null }, review: { points: null, capPerMonth: null }, social: { points: null, capPerMonth: null } },
      walletBackgroundColor: null, walletForegroundColor: null, walletLogo: null, terms: null, version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    };
    let release = () => undefined as void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/admin/programs', () => HttpResponse.json({ items: [program], total: 1, page: 1, pageSize: 25 })),
      http.get(`/api/admin/programs/${program.id}`, async () => {
        await loaded;
        return HttpResponse.json(program);
      }),
    );
    renderWithProviders(<ProgramsPage merchantOptions={[{ value: MERCHANT, label: 'Bar Centrale' }]} renderCustomerPicker={() => null} />, { route: `/programs?program=${program.id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica programma' });
    // While the program loads, the drawer puts the focus on ✕, the one thing there to focus.
    await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Chiudi' })).toHaveFocus());
    release();
    const name = await within(drawer).findByRole('textbox', { name: /^Nome/ });
    await waitFor(() => expect(name).toHaveFocus());
  });
});
