import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { toastModule } from '../../../lib/notify.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoutes, renderWithProviders } from '../../../testing/test-utils.tsx';
import { customer } from '../testing/customer-fixtures.ts';
import { CustomerDetailPage } from './customer-detail-page.tsx';
import { CustomersPage } from './customers-page.tsx';

const admin = { role: 'admin' as const };

/** The card the API derives for a customer: the QR code and barcode carry `<number>-<code>` (decision 030). */
const cardOf = (current: { id: string; cardNumber: string }, code = 'K7PXM2QD9W', version = 1) =>
  http.get(`/api/admin/customers/${current.id}/card`, () =>
    HttpResponse.json({ cardNumber: current.cardNumber, cardCode: code, barcodeMessage: `${current.cardNumber}-${code}`, cardCodeVersion: version }),
  );
const programs = [{ value: '11111111-1111-4111-8111-111111111111', label: 'Circuito Bergamo' }];

/** The active programs a new customer may join (the form asks for them with status=active). */
const activePrograms = (items: { id: string; name: string }[], seen: string[] = []) =>
  http.get('/api/admin/programs', ({ request }) => {
    seen.push(new URL(request.url).searchParams.get('status') ?? '');
    return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 100 });
  });

/** The customers list (empty) and its create endpoint, answering `created`; `sent()` is the last body posted. */
const customerCreation = (created: Parameters<typeof customer>[0]) => {
  let body: Record<string, unknown> | null = null;
  return {
    sent: () => body,
    handlers: [
      http.get('/api/admin/customers', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.post('/api/admin/customers', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(customer(created), { status: 201 });
      }),
    ],
  };
};

// Typing whole forms takes seconds on a loaded machine: generous time per test, no speed asserted.
describe('Clienti', { timeout: 30_000 }, () => {
  it('reads search and every filter from the URL and sends them through the contract schema', async () => {
    const seen: URLSearchParams[] = [];
    server.use(
      http.get('/api/admin/customers', ({ request }) => {
        seen.push(new URL(request.url).searchParams);
        return HttpResponse.json({ items: [customer()], total: 1, page: 1, pageSize: 25 });
      }),
    );
    renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, {
      route: `/customers?q=bianchi&status=active&programId=${programs[0]!.value}&tier=Oro&marketingConsent=false`,
      user: admin,
    });
    expect(await screen.findByRole('link', { name: 'Bianchi Giulia' })).toHaveAttribute('href', `/customers/${customer().id}`);
    expect(Object.fromEntries(seen.at(-1)!)).toEqual({
      q: 'bianchi',
      status: 'active',
      programId: programs[0]!.value,
      tier: 'Oro',
      marketingConsent: 'false',
      sort: 'name',
      order: 'asc',
      page: '1',
      pageSize: '25',
    });
    expect(screen.getByRole('combobox', { name: 'Consenso marketing' })).toHaveDisplayValue('Non concesso');
    expect(screen.getByRole('combobox', { name: 'Programma' })).toHaveDisplayValue('Circuito Bergamo');
  });

  it('opens the customer whose card is scanned into the search, and shows the list again on Back', async () => {
    const holder = customer();
    server.use(
      http.get('/api/admin/customers', ({ request }) => {
        const q = new URL(request.url).searchParams.get('q');
        const items = q ? [holder] : [holder, customer({ id: '7a2d3c0f-2e3b-4c4d-9e5f-6a7b8c9d0e1f', lastName: 'Verdi', cardNumber: '8012345678911' })];
        return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [
        { path: '/customers', element: <CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} /> },
        { path: '/customers/:id', element: <p>customer page</p> },
      ],
      { route: '/customers', user: admin },
    );
    await screen.findByRole('link', { name: 'Verdi Giulia' });
    // A barcode reader types what the card's QR code carries, then Enter.
    await user.type(screen.getByRole('searchbox'), `${holder.cardNumber}-K7PXM2QD9W{Enter}`);
    expect(await screen.findByText('customer page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/customers/${holder.id}`);
    // Back: the list with that search, its one row, and no second jump.
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('link', { name: 'Bianchi Giulia' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(router.state.location).toMatchObject({ pathname: '/customers', search: `?q=${holder.cardNumber}-K7PXM2QD9W` });
  });

  it('offers the chosen program’s tiers in the tier filter, every program’s when none is chosen', async () => {
    server.use(http.get('/api/admin/customers', () => HttpResponse.json({ items: [customer()], total: 1, page: 1, pageSize: 25 })));
    const withTiers = [
      { value: programs[0]!.value, label: 'Circuito Bergamo', tiers: ['Bronzo', 'Oro'] },
      { value: '22222222-2222-4222-8222-222222222222', label: 'Caffè Centrale', tiers: ['Argento', 'Oro'] },
    ];
    const user = userEvent.setup();
    const { router } = renderWithProviders(<CustomersPage programOptions={withTiers} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers', user: admin });
    const tierChoices = async () => within(await screen.findByRole('combobox', { name: 'Livello' })).getAllByRole('option').map((option) => option.textContent);
    expect(await tierChoices()).toEqual(['Tutti i livelli', 'Argento', 'Bronzo', 'Oro']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Livello' }), 'Oro');
    await waitFor(() => expect(router.state.location.search).toContain('tier=Oro'));

    await router.navigate(`/customers?programId=${programs[0]!.value}`);
    await waitFor(async () => expect(await tierChoices()).toEqual(['Tutti i livelli', 'Bronzo', 'Oro']));
  });

  it('moves a page past the last one to the last page, instead of saying there are no customers', async () => {
    const pages: string[] = [];
    server.use(
      http.get('/api/admin/customers', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        pages.push(String(page));
        return HttpResponse.json({ items: page <= 3 ? [customer()] : [], total: 51, page, pageSize: 25 });
      }),
    );
    const { router } = renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers?page=999', user: admin });
    expect(await screen.findByText('51–51 di 51')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=3');
    expect(pages).toEqual(['999', '3']);
    expect(screen.queryByText(/Ancora nessun cliente/)).toBeNull();
  });

  it('says "più di 10.000" when the API counted only up to its cap, never a wrong exact count', async () => {
    server.use(
      http.get('/api/admin/customers', () =>
        HttpResponse.json({ items: [customer()], total: 10_000, page: 1, pageSize: 25, totalIsCapped: true }),
      ),
    );
    renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers', user: admin });
    expect(await screen.findByText('1–25 di più di 10.000')).toBeInTheDocument();
  });

  it('shows phones as people read them, Italian ones without the country code, foreign ones with it, in the list and on the page', async () => {
    const italian = customer();
    const foreign = customer({ id: '7a2d3c0f-2e3b-4c4d-9e5f-6a7b8c9d0e1f', firstName: 'John', lastName: 'Smith', cardNumber: '8012345678910', phone: '+442079460958' });
    server.use(
      http.get('/api/admin/customers', () => HttpResponse.json({ items: [italian, foreign], total: 2, page: 1, pageSize: 25 })),
      http.get(`/api/admin/customers/${italian.id}`, () => HttpResponse.json(italian)),
      cardOf(italian),
      http.get(`/api/admin/customers/${italian.id}/consents`, () => HttpResponse.json({ items: [] })),
    );
    const list = renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers', user: admin });
    expect(await screen.findByRole('cell', { name: '333 123 4567' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '+44 20 7946 0958' })).toBeInTheDocument();
    expect(screen.queryByText('+393331234567')).toBeNull();
    list.unmount();

    renderWithProviders(<CustomerDetailPage customerId={italian.id} listHref="/customers" />, { route: `/customers/${italian.id}`, user: admin });
    expect(await screen.findByText('333 123 4567')).toBeInTheDocument();
    expect(screen.queryByText('+393331234567')).toBeNull();
  });

  it("says in words the filters a dashboard figure opened it with, sends them, and takes them off", async () => {
    const user = userEvent.setup();
    const seen: URLSearchParams[] = [];
    server.use(
      http.get('/api/admin/customers', ({ request }) => {
        seen.push(new URL(request.url).searchParams);
        return HttpResponse.json({ items: [customer()], total: 1, page: 1, pageSize: 25 });
      }),
    );
    renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, {
      route: '/customers?activeFrom=2026-10-23T22:00:00.000Z&activeTo=2026-11-22T22:59:59.999Z&joinedTo=2026-11-22T22:59:59.999Z&erased=false',
      user: admin,
    });
    const filter = await screen.findByTestId('figure-filter');
    expect(filter).toHaveTextContent('Con movimenti dal 24/10/2026 al 22/11/2026 · Iscritti fino al 22/11/2026 · esclusi i cancellati');
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({
      activeFrom: '2026-10-23T22:00:00.000Z',
      activeTo: '2026-11-22T22:59:59.999Z',
      joinedTo: '2026-11-22T22:59:59.999Z',
      erased: 'false',
    });
    await user.click(within(filter).getByRole('button', { name: 'Togli il filtro' }));
    await waitFor(() => expect(screen.queryByTestId('figure-filter')).toBeNull());
    const last = Object.fromEntries(seen.at(-1)!);
    expect(last).not.toHaveProperty('activeFrom');
    expect(last).not.toHaveProperty('erased');
  });

  it('creates a customer with the service consent, and marketing only when ticked', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const creation = customerCreation({ firstName: 'Marco', lastName: 'Neri' });
    server.use(
      ...creation.handlers,
      activePrograms([]),
    );
    const { router } = renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers?customer=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo cliente' });
    await user.click(within(drawer).getByRole('button', { name: 'Crea cliente' }));
    expect(await within(drawer).findByText('Nome è obbligatorio')).toBeInTheDocument();
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Marco');
    await user.type(within(drawer).getByRole('textbox', { name: /^Cognome/ }), 'Neri');
    await user.type(within(drawer).getByRole('textbox', { name: /^Email/ }), 'marco@');
    await user.click(within(drawer).getByRole('button', { name: 'Crea cliente' }));
    // The contract's wording, the same the API would answer.
    expect(await within(drawer).findByText('Email non è valida')).toBeInTheDocument();
    await user.type(within(drawer).getByRole('textbox', { name: /^Email/ }), 'example.it');
    await user.click(within(drawer).getByRole('checkbox', { name: 'Marketing' }));
    // Italian unless the operator picks another language.
    expect(within(drawer).getByLabelText(/^Lingua/, { selector: 'input' })).toHaveValue('Italiano');
    await user.click(within(drawer).getByLabelText(/^Lingua/, { selector: 'input' }));
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Inglese', hidden: true }));
    await user.click(within(drawer).getByRole('button', { name: 'Crea cliente' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/customers/${customer().id}`));
    expect(creation.sent()).toEqual({
      firstName: 'Marco',
      lastName: 'Neri',
      email: 'marco@example.it',
      phone: null,
      birthDate: null,
      city: null,
      province: null,
      language: 'en',
      consents: {
        service: { granted: true, channel: 'back-office', noticeVersion: '2026-01' },
        marketing: { granted: true, channel: 'back-office', noticeVersion: '2026-01' },
      },
    });
  });

  it('enrols the new customer in the only active program, preselected, and names the welcome it sends', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const asked: string[] = [];
    const creation = customerCreation({ firstName: 'Pia', lastName: 'Sala' });
    server.use(
      ...creation.handlers,
      activePrograms([{ id: '22222222-2222-4222-8222-222222222222', name: 'Tessera Caffè' }], asked),
    );
    const { router } = renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers?customer=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo cliente' });
    const program = within(drawer).getByRole('combobox', { name: 'Programma' });
    await waitFor(() => expect(program).toHaveDisplayValue('Tessera Caffè'));
    expect(asked).toEqual(['active']);
    expect(program).toHaveAccessibleDescription(/l'eventuale e-mail di benvenuto parte da qui/);
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Pia');
    await user.type(within(drawer).getByRole('textbox', { name: /^Cognome/ }), 'Sala');
    await user.click(within(drawer).getByRole('button', { name: 'Crea cliente' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/customers/${customer().id}`));
    expect(creation.sent()).toMatchObject({ firstName: 'Pia', programId: '22222222-2222-4222-8222-222222222222' });
  });

  it('preselects nothing among several active programs, and sends the one chosen', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const creation = customerCreation({ firstName: 'Ugo', lastName: 'Riva' });
    server.use(
      ...creation.handlers,
      activePrograms([
        { id: '22222222-2222-4222-8222-222222222222', name: 'Tessera Caffè' },
        { id: '33333333-3333-4333-8333-333333333333', name: 'Circuito Punti' },
      ]),
    );
    const { router } = renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers?customer=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo cliente' });
    const program = within(drawer).getByRole('combobox', { name: 'Programma' });
    await user.click(program);
    expect(program).toHaveDisplayValue('');
    await user.click(await screen.findByRole('option', { name: 'Circuito Punti', hidden: true }));
    expect(program).toHaveDisplayValue('Circuito Punti');
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Ugo');
    await user.type(within(drawer).getByRole('textbox', { name: /^Cognome/ }), 'Riva');
    await user.click(within(drawer).getByRole('button', { name: 'Crea cliente' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/customers/${customer().id}`));
    expect(creation.sent()).toMatchObject({ programId: '33333333-3333-4333-8333-333333333333' });
  });

  it('says an e-mail already used on the e-mail field, not as a version conflict, and keeps the form', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    server.use(
      http.get('/api/admin/customers', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.post('/api/admin/customers', () =>
        HttpResponse.json(
          { error: { code: 'already_used', message: 'Email già in uso', fields: [{ field: 'email', message: 'Email già in uso' }], requestId: 'r' } },
          { status: 409 },
        ),
      ),
      activePrograms([]),
    );
    renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers?customer=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo cliente' });
    await user.type(within(drawer).getByRole('textbox', { name: /^Nome/ }), 'Maria');
    await user.type(within(drawer).getByRole('textbox', { name: /^Cognome/ }), 'Rossi');
    await user.type(within(drawer).getByRole('textbox', { name: /^Email/ }), 'maria.rossi@example.it');
    await user.click(within(drawer).getByRole('button', { name: 'Crea cliente' }));
    const email = within(drawer).getByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email).toHaveAccessibleDescription('Email già in uso'));
    expect(within(drawer).queryByText(/Qualcun altro/)).toBeNull();
    expect(within(drawer).getByRole('textbox', { name: /^Cognome/ })).toHaveValue('Rossi');
    expect(screen.getByRole('dialog', { name: 'Nuovo cliente' })).toBeInTheDocument();
  });

  it.each([
    ['an id that is no customer', '00000000-0000-4000-8000-0000000000aa', 404, { code: 'not_found', message: 'Cliente richiesto non trovato' }],
    ['an address that holds no id', 'abc', 400, { code: 'validation', message: 'Id non è valido', fields: [{ field: 'id', message: 'Id non è valido' }] }],
  ])('says in words that there is no such customer, for %s, with the way back and no toast', async (_case, id, status, error) => {
    const { notifications } = await toastModule();
    const show = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
    onTestFinished(() => show.mockRestore());
    server.use(http.get(`/api/admin/customers/${id}`, () => HttpResponse.json({ error: { ...error, requestId: 'r' } }, { status })));
    renderWithProviders(<CustomerDetailPage customerId={id} listHref="/customers" messages={() => <p>Messaggi</p>} />, { route: `/customers/${id}`, user: admin });
    expect(await screen.findByRole('heading', { name: 'Cliente non trovato', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tutti i clienti' })).toHaveAttribute('href', '/customers');
    expect(screen.queryByText(error.message)).toBeNull();
    // Nothing of a customer's page beneath (the route's panels ask for a customer that is not there).
    expect(screen.queryByText('Messaggi')).toBeNull();
    // Toasts are raised a microtask later (notify.ts): give a stray one the chance to appear.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(show).not.toHaveBeenCalled();
  });

  it('shows the card with QR and barcode, the consents and their history, and records a withdrawal with channel and notice', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const current = customer({ consents: { ...customer().consents, marketing: { granted: true, at: '2026-11-02T10:00:00.000Z', channel: 'app', noticeVersion: '2026-01' } } });
    let recorded: unknown = null;
    server.use(
      http.get(`/api/admin/customers/${current.id}`, () => HttpResponse.json(current)),
      cardOf(current),
      http.get(`/api/admin/customers/${current.id}/consents`, () =>
        HttpResponse.json({ items: [{ id: 2, purpose: 'marketing', granted: true, channel: 'app', noticeVersion: '2026-01', at: '2026-11-02T10:00:00.000Z', recordedBy: null }] }),
      ),
      http.post(`/api/admin/customers/${current.id}/consents`, async ({ request }) => {
        recorded = await request.json();
        return HttpResponse.json({ ...current, consents: { ...current.consents, marketing: { granted: false, at: '2026-11-23T10:00:00.000Z', channel: 'counter', noticeVersion: '2026-01' } } }, { status: 201 });
      }),
    );
    renderWithProviders(<CustomerDetailPage customerId={current.id} listHref="/customers" />, { route: `/customers/${current.id}`, user: admin });
    expect(await screen.findByRole('heading', { name: 'Giulia Bianchi' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('card-number')).toHaveTextContent('8012 3456 7890 3'));
    expect(await screen.findByRole('img', { name: 'Codice QR della tessera 8012345678903' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/png/));
    expect(screen.getByRole('img', { name: 'Codice a barre della tessera 8012345678903' })).toBeInTheDocument();
    expect(screen.getByText('17/05/1990')).toBeInTheDocument();
    const history = await screen.findByRole('table', { name: 'Cronologia dei consensi' });
    expect(within(history).getByText('02/11/2026, 11:00')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoca consenso: Marketing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revocare il consenso Marketing?' });
    await user.click(within(dialog).getByLabelText('Canale', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Banco', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Conferma' }));
    await waitFor(() => expect(recorded).toEqual({ purpose: 'marketing', granted: false, channel: 'counter', noticeVersion: '2026-01' }));
    expect(await screen.findByRole('button', { name: 'Registra consenso: Marketing' })).toBeInTheDocument();
  });

  it('names an erased customer, with a heading, in the list and on the page, and words its consent notice', async () => {
    const erased = customer({
      firstName: '',
      lastName: '',
      email: null,
      status: 'erased',
      cardNumber: '2790000000012',
      consents: { service: { granted: false, at: '2026-11-20T10:00:00.000Z', channel: 'back-office', noticeVersion: 'erased' }, marketing: null, profiling: null },
    });
    server.use(
      http.get('/api/admin/customers', () => HttpResponse.json({ items: [erased], total: 1, page: 1, pageSize: 25 })),
      http.get(`/api/admin/customers/${erased.id}`, () => HttpResponse.json(erased)),
      http.get(`/api/admin/customers/${erased.id}/consents`, () =>
        HttpResponse.json({ items: [{ id: 9, purpose: 'service', granted: false, channel: 'back-office', noticeVersion: 'erased', at: '2026-11-20T10:00:00.000Z', recordedBy: null }] }),
      ),
    );
    const list = renderWithProviders(<CustomersPage programOptions={programs} hrefFor={(id) => `/customers/${id}`} />, { route: '/customers', user: admin });
    expect(await screen.findByRole('link', { name: 'Cliente cancellato · 2790000000012' })).toHaveAttribute('href', `/customers/${erased.id}`);
    list.unmount();
    renderWithProviders(<CustomerDetailPage customerId={erased.id} listHref="/customers" />, { route: `/customers/${erased.id}`, user: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cliente cancellato · 2790000000012' })).toBeInTheDocument();
    const history = await screen.findByRole('table', { name: 'Cronologia dei consensi' });
    expect(within(history).getByText('dati cancellati')).toBeInTheDocument();
    expect(screen.queryByText('erased')).toBeNull();
  });

  it("says the retention purge's withdrawal is the system's, with its notice in words, not the back-office's", async () => {
    const purged = customer({
      consents: { ...customer().consents, profiling: { granted: false, at: '2026-11-20T02:00:00.000Z', channel: 'system', noticeVersion: 'retention' } },
    });
    server.use(
      cardOf(purged),
      http.get(`/api/admin/customers/${purged.id}`, () => HttpResponse.json(purged)),
      http.get(`/api/admin/customers/${purged.id}/consents`, () =>
        HttpResponse.json({ items: [{ id: 7, purpose: 'profiling', granted: false, channel: 'system', noticeVersion: 'retention', at: '2026-11-20T02:00:00.000Z', recordedBy: null }] }),
      ),
    );
    renderWithProviders(<CustomerDetailPage customerId={purged.id} listHref="/customers" />, { route: `/customers/${purged.id}`, user: admin });
    const history = await screen.findByRole('table', { name: 'Cronologia dei consensi' });
    const row = within(history).getAllByRole('row')[1]!;
    expect(within(row).getByText('Sistema')).toBeInTheDocument();
    expect(within(row).getByText('periodo di conservazione scaduto')).toBeInTheDocument();
    expect(screen.getByText(/Sistema · periodo di conservazione scaduto/)).toBeInTheDocument();
    expect(screen.queryByText('retention')).toBeNull();
    expect(screen.queryByText('Back-office')).toBeNull();
  });

  it('asks before blocking a customer and sends the status with the version read', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const current = customer();
    let patch: unknown = null;
    server.use(
      http.get(`/api/admin/customers/${current.id}`, () => HttpResponse.json(current)),
      cardOf(current),
      http.get(`/api/admin/customers/${current.id}/consents`, () => HttpResponse.json({ items: [] })),
      http.patch(`/api/admin/customers/${current.id}`, async ({ request }) => {
        patch = await request.json();
        return HttpResponse.json({ ...current, status: 'blocked', version: 2 });
      }),
    );
    renderWithProviders(<CustomerDetailPage customerId={current.id} listHref="/customers" />, { route: `/customers/${current.id}`, user: admin, language: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Block' }));
    const confirm = await screen.findByRole('dialog', { name: 'Block this customer?' });
    expect(patch).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(patch).toEqual({ status: 'blocked', version: 1 }));
    expect(await screen.findByRole('button', { name: 'Unblock' })).toBeInTheDocument();
  });

  it('after an edit conflict, reloads the customer with the phone typed kept, names the city changed meanwhile, and saves on the fresh version', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const { notifications } = await toastModule();
    const show = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
    onTestFinished(() => show.mockRestore());
    const user = userEvent.setup();
    // Read at version 1; another tab then moves the customer to Brescia (version 2).
    let stored = customer();
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get(`/api/admin/customers/${stored.id}`, () => HttpResponse.json(stored)),
      cardOf(stored),
      http.get(`/api/admin/customers/${stored.id}/consents`, () => HttpResponse.json({ items: [] })),
      http.patch(`/api/admin/customers/${stored.id}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        if (body.version !== stored.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } }, { status: 409 });
        }
        stored = { ...stored, phone: body.phone as string, city: body.city as string, version: stored.version + 1 };
        return HttpResponse.json(stored);
      }),
    );
    renderWithProviders(<CustomerDetailPage customerId={stored.id} listHref="/customers" />, { route: `/customers/${stored.id}?edit=1`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica cliente' });
    stored = { ...stored, city: 'Brescia', version: 2 };

    const phone = within(drawer).getByRole('textbox', { name: /^Telefono/ });
    await user.clear(phone);
    await user.type(phone, '+39 347 765 4321');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    const conflict = await within(drawer).findByRole('alert');
    expect(conflict).toHaveTextContent('Qualcun altro ha modificato questo dato nel frattempo');
    await user.click(within(conflict).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await within(drawer).findByRole('status')).toHaveTextContent('Città: ora «Brescia»');
    expect(within(drawer).getByRole('textbox', { name: /^Città/ })).toHaveValue('Brescia');
    expect(within(drawer).getByRole('textbox', { name: /^Telefono/ })).toHaveValue('+39 347 765 4321');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Modifica cliente' })).toBeNull());
    expect(patches.map(({ version, city, phone: sentPhone }) => ({ version, city, phone: sentPhone }))).toEqual([
      { version: 1, city: 'Bergamo', phone: '+39 347 765 4321' },
      { version: 2, city: 'Brescia', phone: '+39 347 765 4321' },
    ]);
    // The conflict is said once, in the drawer: no toast repeating it.
    expect(show.mock.calls.map(([toast]) => String(toast.message))).not.toContainEqual(expect.stringMatching(/Qualcun altro/));
  });

  it("encodes the card's code in the QR code and barcode, prints the number alone, and asks before giving the card a new code", async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const current = customer();
    let regenerated = 0;
    server.use(
      http.get(`/api/admin/customers/${current.id}`, () => HttpResponse.json(current)),
      cardOf(current),
      http.get(`/api/admin/customers/${current.id}/consents`, () => HttpResponse.json({ items: [] })),
      http.post(`/api/admin/customers/${current.id}/card-code`, () => {
        regenerated += 1;
        return HttpResponse.json({ cardNumber: current.cardNumber, cardCode: 'NEWC0DE234', barcodeMessage: `${current.cardNumber}-NEWC0DE234`, cardCodeVersion: 2 });
      }),
    );
    const { toDataURL } = await import('qrcode');
    renderWithProviders(<CustomerDetailPage customerId={current.id} listHref="/customers" />, { route: `/customers/${current.id}`, user: admin });
    const qr = await screen.findByRole('img', { name: 'Codice QR della tessera 8012345678903' });
    expect(qr.getAttribute('src')).toBe(await toDataURL('8012345678903-K7PXM2QD9W', { margin: 1, width: 160, errorCorrectionLevel: 'M' }));
    expect(screen.getByTestId('card-number')).toHaveTextContent(/^8012 3456 7890 3$/);
    expect(document.body.textContent).not.toContain('K7PXM2QD9W');

    await user.click(screen.getByRole('button', { name: 'Nuovo codice tessera' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dare alla tessera un nuovo codice?' });
    expect(regenerated).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Genera il nuovo codice' }));
    await waitFor(() => expect(regenerated).toBe(1));
    const expected = await toDataURL('8012345678903-NEWC0DE234', { margin: 1, width: 160, errorCorrectionLevel: 'M' });
    await waitFor(() => expect(screen.getByRole('img', { name: 'Codice QR della tessera 8012345678903' }).getAttribute('src')).toBe(expected));
  });
});
