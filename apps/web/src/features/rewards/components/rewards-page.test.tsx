import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Reward } from '@sf/contract/rewards';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { PROGRAM_ID, reward as baseReward } from '../testing/reward-fixtures.tsx';
import { RewardsPage } from './rewards-page.tsx';

const admin = { role: 'admin' as const };
const POINTS_PROGRAM = PROGRAM_ID;
const STAMPS_PROGRAM = '00000000-0000-4000-8000-000000000003';
const programs = [
  { value: POINTS_PROGRAM, label: 'Circuito Centro', type: 'points' as const },
  { value: STAMPS_PROGRAM, label: 'Tessera Bar', type: 'stamps' as const },
];

/** This list's reward: 1,200 points, no stock limit, vouchers in every state. */
const reward = (overrides: Partial<Reward> = {}): Reward =>
  baseReward({ cost: 1200, stock: null, validFrom: null, vouchers: { available: 3, issued: 2, used: 1, expired: 0, void: 0 }, version: 4, ...overrides });

function answerList(items: Reward[] = []) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/rewards', ({ request }) => {
      seen.push(new URL(request.url).searchParams);
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
    }),
  );
  return seen;
}

function renderPage(route: string) {
  return renderWithProviders(<RewardsPage programs={programs} rewardHref={(id) => `/rewards/${id}`} />, { route, user: admin });
}

describe('Premi', { timeout: 30_000 }, () => {
  it('lists rewards with their cost in points or stamps, the stock and the vouchers, filtered as the URL says', async () => {
    const seen = answerList([reward(), reward({ id: '00000000-0000-4000-8000-0000000000a2', name: 'Caffè', programName: 'Tessera Bar', costUnit: 'stamps', cost: 1, stock: 40, status: 'draft' })]);
    renderPage(`/rewards?programId=${POINTS_PROGRAM}&status=active`);
    const gelato = (await screen.findByRole('link', { name: 'Gelato' })).closest('tr')!;
    expect(gelato.querySelector('a')).toHaveAttribute('href', '/rewards/00000000-0000-4000-8000-0000000000a1');
    expect(within(gelato).getByText('1.200 punti')).toBeInTheDocument();
    expect(within(gelato).getByText('illimitato')).toBeInTheDocument();
    expect(within(gelato).getByText('3 disponibili · 2 assegnati · 1 usato')).toBeInTheDocument();
    expect(within(gelato).getByText('30/06/2027')).toBeInTheDocument();
    const coffee = screen.getByRole('link', { name: 'Caffè' }).closest('tr')!;
    expect(within(coffee).getByText('1 timbro')).toBeInTheDocument();
    expect(within(coffee).getByText('Bozza')).toBeInTheDocument();
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ programId: POINTS_PROGRAM, status: 'active', sort: 'name', order: 'asc' });
  });

  it('checks a new reward before sending it, prices it in the program’s unit and opens it once created', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerList();
    const bodies: unknown[] = [];
    const created = reward({ id: '00000000-0000-4000-8000-0000000000a9', name: 'Caffè omaggio', programId: STAMPS_PROGRAM, costUnit: 'stamps' });
    server.use(
      http.post('/api/admin/rewards', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    const { router } = renderPage('/rewards?reward=new');
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo premio' });
    await user.click(within(drawer).getByRole('button', { name: 'Crea premio' }));
    expect(await within(drawer).findByText('Nome è obbligatorio')).toBeInTheDocument();
    expect(within(drawer).getByLabelText(/Programma/, { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
    expect(within(drawer).getByRole('textbox', { name: /Costo in punti/ })).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([]);

    await user.click(within(drawer).getByLabelText(/Programma/, { selector: 'input' }));
    // The drawer's picker (the list's program filter is a native select with the same option).
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Tessera Bar', hidden: true }));
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Caffè omaggio');
    await user.type(within(drawer).getByRole('textbox', { name: /Costo in timbri/ }), '10');
    // Days typed as an Italian writes them (the fields show them so in any browser).
    await user.type(await within(drawer).findByRole('textbox', { name: 'Valido dal' }), '01/12/2026');
    await user.type(within(drawer).getByRole('textbox', { name: 'Valido fino al' }), '30/11/2026');
    await user.click(within(drawer).getByRole('button', { name: 'Crea premio' }));
    expect(await within(drawer).findByText('Valido fino al: la data non può venire prima di Valido dal')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.clear(within(drawer).getByRole('textbox', { name: 'Valido fino al' }));
    await user.click(within(drawer).getByRole('button', { name: 'Crea premio' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    // The window as the days typed; blank stock and limit are "unlimited".
    expect(bodies[0]).toEqual({
      programId: STAMPS_PROGRAM,
      name: 'Caffè omaggio',
      description: '',
      imageId: null,
      cost: 10,
      stock: null,
      limitPerCustomer: null,
      validFrom: '2026-12-01',
      validUntil: null,
      status: 'draft',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/rewards/${created.id}`));
    expect(await screen.findByText('Premio “Caffè omaggio” creato')).toBeInTheDocument();
  });

  it('keeps a number out of bounds as typed and names the field, instead of changing it silently', async () => {
    const user = userEvent.setup();
    answerList();
    const bodies: unknown[] = [];
    server.use(http.post('/api/admin/rewards', async ({ request }) => HttpResponse.json(bodies.push(await request.json()), { status: 500 })));
    renderPage('/rewards?reward=new');
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo premio' });
    const cost = within(drawer).getByRole('textbox', { name: /Costo in punti/ });
    const stock = within(drawer).getByRole('textbox', { name: /Disponibilità/ });
    const limit = within(drawer).getByRole('textbox', { name: /Limite per cliente/ });
    await user.type(cost, '-5');
    await user.type(stock, '-1');
    await user.type(limit, '0');
    await user.tab();
    // Mantine's NumberInput would clamp them on blur (1, 0, 1) without a word.
    expect(cost).toHaveValue('-5');
    expect(stock).toHaveValue('-1');
    expect(limit).toHaveValue('0');
    await user.click(within(drawer).getByRole('button', { name: 'Crea premio' }));
    expect(await within(drawer).findByText('Costo deve essere almeno 1')).toBeInTheDocument();
    expect(within(drawer).getByText('Disponibilità deve essere almeno 0')).toBeInTheDocument();
    expect(within(drawer).getByText('Limite per cliente deve essere almeno 1')).toBeInTheDocument();
    expect(cost).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([]);
  });

  it('changes a reward with the version read, never its program', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const current = reward({ stock: 5 });
    answerList([current]);
    const patches: unknown[] = [];
    server.use(
      http.get(`/api/admin/rewards/${current.id}`, () => HttpResponse.json(current)),
      http.patch(`/api/admin/rewards/${current.id}`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json({ ...current, stock: 8, status: 'archived', version: 5 });
      }),
    );
    renderPage(`/rewards?reward=${current.id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Modifica premio' });
    expect(await within(drawer).findByLabelText(/Programma/, { selector: 'input' })).toBeDisabled();
    const stock = within(drawer).getByRole('textbox', { name: /Disponibilità/ });
    await user.clear(stock);
    await user.type(stock, '8');
    await user.click(within(drawer).getByLabelText('Stato', { selector: 'input' }));
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Archiviato', hidden: true }));
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({
      name: 'Gelato',
      description: '',
      imageId: null,
      cost: 1200,
      stock: 8,
      limitPerCustomer: null,
      validFrom: null,
      validUntil: '2027-06-30',
      status: 'archived',
      version: 4,
    });
    expect(await screen.findByText('Premio “Gelato” salvato')).toBeInTheDocument();
  });

  it('after an edit conflict, reloads the reward keeping the stock typed, says the name both changed, and saves on the fresh version', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const opened = reward({ stock: 5 });
    answerList([opened]);
    let stored = opened;
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get(`/api/admin/rewards/${opened.id}`, () => HttpResponse.json(stored)),
      http.patch(`/api/admin/rewards/${opened.id}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        if (body.version !== stored.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } }, { status: 409 });
        }
        stored = { ...stored, ...(body as Partial<Reward>), version: stored.version + 1 };
        return HttpResponse.json(stored);
      }),
    );
    renderPage(`/rewards?reward=${opened.id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Modifica premio' });
    const name = await within(drawer).findByRole('textbox', { name: /^Nome/ });
    stored = { ...opened, name: 'Gelato grande', version: opened.version + 1 };
    await user.clear(name);
    await user.type(name, 'Gelato alla crema');
    const stock = within(drawer).getByRole('textbox', { name: /Disponibilità/ });
    await user.clear(stock);
    await user.type(stock, '8');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await user.click(within(await within(drawer).findByRole('alert')).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await within(drawer).findByRole('status')).toHaveTextContent("resta il tuo valore (l'altra persona aveva scritto «Gelato grande»)");
    expect(within(drawer).getByRole('textbox', { name: /^Nome/ })).toHaveValue('Gelato alla crema');
    expect(within(drawer).getByRole('textbox', { name: /Disponibilità/ })).toHaveValue('8');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toMatchObject({ name: 'Gelato alla crema', stock: 8, version: opened.version + 1 });
  });

  it.each([
    ['an id that is no reward', '00000000-0000-4000-8000-0000000000aa', 404, { code: 'not_found', message: 'Premio richiesto non trovato' }],
    ['an address that holds no id', 'abc', 400, { code: 'validation', message: 'Id non è valido', fields: [{ field: 'id', message: 'Id non è valido' }] }],
  ])('says in the reward page’s words that there is no such reward, for %s, in a drawer titled "Premio", not "Modifica premio"', async (_case, id, status, error) => {
    answerList();
    server.use(http.get(`/api/admin/rewards/${id}`, () => HttpResponse.json({ error: { ...error, requestId: 'r' } }, { status })));
    renderPage(`/rewards?reward=${id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Premio' });
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent("Premio non trovatoNessun premio a questo indirizzo: il link è sbagliato o il premio non c'è più.");
    expect(within(drawer).queryByText(error.message)).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Modifica premio' })).toBeNull();
  });

  it('puts the focus on the name once the reward has loaded, not on ✕', async () => {
    const current = reward();
    answerList([current]);
    let release = () => undefined as void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get(`/api/admin/rewards/${current.id}`, async () => {
        await loaded;
        return HttpResponse.json(current);
      }),
    );
    renderPage(`/rewards?reward=${current.id}`);
    const drawer = await screen.findByRole('dialog', { name: 'Modifica premio' });
    await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Chiudi' })).toHaveFocus());
    release();
    const name = await within(drawer).findByRole('textbox', { name: /^Nome/ });
    await waitFor(() => expect(name).toHaveFocus());
  });
});
