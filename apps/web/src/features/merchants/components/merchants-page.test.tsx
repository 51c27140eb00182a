import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { merchant } from '../testing/merchant-fixtures.ts';
import { MerchantsPage } from './merchants-page.tsx';

const admin = { role: 'admin' as const };

function answerList(items = [merchant()]) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/merchants', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(params);
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
    }),
  );
  return seen;
}

// Typing whole forms takes seconds on a loaded machine: generous time per test, no speed asserted.
describe('Esercenti', { timeout: 30_000 }, () => {
  it('lists merchants with the filters of the URL and translated categories and statuses', async () => {
    const seen = answerList([merchant(), merchant({ id: 'b1b1b1b1-0000-4000-8000-000000000002', legalName: 'Salone Lia', category: 'hairdresser', status: 'suspended' })]);
    renderWithProviders(<MerchantsPage />, { route: '/merchants?status=suspended&province=MI', user: admin });
    const row = (await screen.findByRole('link', { name: 'Salone Lia' })).closest('tr')!;
    expect(within(row).getByText('Parrucchiere')).toBeInTheDocument();
    expect(within(row).getByText('Sospeso')).toBeInTheDocument();
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ status: 'suspended', province: 'MI', sort: 'legalName', order: 'asc' });
  });

  it('checks the Italian fields in the form with clear texts before sending anything', async () => {
    const user = userEvent.setup();
    answerList([]);
    let posts = 0;
    server.use(http.post('/api/admin/merchants', () => { posts += 1; return HttpResponse.json(merchant()); }));
    renderWithProviders(<MerchantsPage />, { route: '/merchants?merchant=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo esercente' });
    await user.type(within(drawer).getByRole('textbox', { name: /Ragione sociale/ }), 'Bar Sport');
    await user.type(within(drawer).getByRole('textbox', { name: /Partita IVA/ }), '01234567890');
    await user.type(within(drawer).getByRole('textbox', { name: /CAP/ }), '2012');
    await user.click(within(drawer).getByRole('button', { name: 'Crea esercente' }));
    expect(await within(drawer).findByText('Partita IVA non è valida')).toBeInTheDocument();
    expect(within(drawer).getByText('CAP non è valido')).toBeInTheDocument();
    expect(within(drawer).getByText('Via è obbligatoria')).toBeInTheDocument();
    expect(posts).toBe(0);
  });

  it('sends a valid merchant, shows the server’s 400 text on the named field', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerList([]);
    let body: Record<string, unknown> | null = null;
    server.use(
      http.post('/api/admin/merchants', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(
          { error: { code: 'validation', message: 'bad', fields: [{ field: 'sdiCode', message: 'Codice SDI non è valido' }], requestId: 'r' } },
          { status: 400 },
        );
      }),
    );
    renderWithProviders(<MerchantsPage />, { route: '/merchants?merchant=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo esercente' });
    await user.type(within(drawer).getByRole('textbox', { name: /Ragione sociale/ }), 'Bar Sport S.n.c.');
    await user.type(within(drawer).getByRole('textbox', { name: /Partita IVA/ }), '01234567897');
    await user.type(within(drawer).getByRole('textbox', { name: /Via e numero/ }), 'Via Po 3');
    await user.type(within(drawer).getByRole('textbox', { name: /Città/ }), 'Torino');
    await user.click(within(drawer).getByLabelText(/Provincia/, { selector: 'input' }));
    // The list's province filter has the same options: the drawer's list is the one opened last.
    await user.click((await screen.findAllByRole('option', { name: 'TO', hidden: true })).at(-1)!);
    await user.type(within(drawer).getByRole('textbox', { name: /CAP/ }), '10123');
    await user.click(within(drawer).getByRole('button', { name: 'Crea esercente' }));
    expect(await within(drawer).findByText('Codice SDI non è valido')).toBeInTheDocument();
    expect(body).toMatchObject({ legalName: 'Bar Sport S.n.c.', vatNumber: '01234567897', signName: null, address: { street: 'Via Po 3', city: 'Torino', province: 'TO', postalCode: '10123' } });
  });

  it('takes a Partita IVA pasted with IT and spaces whole, and shows a duplicate on the field', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerList([]);
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/admin/merchants', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json(
          { error: { code: 'already_used', message: 'Partita IVA già in uso', fields: [{ field: 'vatNumber', message: 'Partita IVA già in uso' }], requestId: 'r' } },
          { status: 409 },
        );
      }),
    );
    renderWithProviders(<MerchantsPage />, { route: '/merchants?merchant=new', user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Nuovo esercente' });
    await user.type(within(drawer).getByRole('textbox', { name: /Ragione sociale/ }), 'Bar Sport S.n.c.');
    const vat = within(drawer).getByRole('textbox', { name: /Partita IVA/ });
    await user.click(vat);
    await user.paste('IT 01234567897');
    expect(vat).toHaveValue('IT 01234567897');
    await user.type(within(drawer).getByRole('textbox', { name: /Via e numero/ }), 'Via Po 3');
    await user.type(within(drawer).getByRole('textbox', { name: /Città/ }), 'Torino');
    await user.click(within(drawer).getByLabelText(/Provincia/, { selector: 'input' }));
    await user.click((await screen.findAllByRole('option', { name: 'TO', hidden: true })).at(-1)!);
    await user.type(within(drawer).getByRole('textbox', { name: /CAP/ }), '10123');
    await user.click(within(drawer).getByRole('button', { name: 'Crea esercente' }));
    await waitFor(() => expect(vat).toHaveAccessibleDescription(/^Partita IVA già in uso/));
    expect(bodies[0]).toMatchObject({ vatNumber: '01234567897' });
  });

  it.each([
    ['an id that is no merchant', 'b1b1b1b1-0000-4000-8000-0000000000aa', 404, { code: 'not_found', message: 'Esercente richiesto non trovato' }],
    ['an address that holds no id', 'abc', 400, { code: 'validation', message: 'Id non è valido', fields: [{ field: 'id', message: 'Id non è valido' }] }],
  ])('says in words that there is no such merchant, for %s, in a drawer titled by the entity alone', async (_case, id, status, error) => {
    answerList();
    server.use(http.get(`/api/admin/merchants/${id}`, () => HttpResponse.json({ error: { ...error, requestId: 'r' } }, { status })));
    renderWithProviders(<MerchantsPage />, { route: `/merchants?merchant=${id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Esercente' });
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent('Esercente non trovato');
    expect(alert).toHaveTextContent("Nessun esercente a questo indirizzo: il link è sbagliato o l'esercente non c'è più.");
    expect(within(drawer).queryByText(error.message)).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Modifica esercente' })).toBeNull();
  });

  it('asks before suspending a merchant and sends the status with the version read', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const current = merchant();
    answerList([current]);
    let patch: unknown = null;
    server.use(
      http.get(`/api/admin/merchants/${current.id}`, () => HttpResponse.json(current)),
      http.patch(`/api/admin/merchants/${current.id}`, async ({ request }) => {
        patch = await request.json();
        return HttpResponse.json({ ...current, status: 'suspended', version: 3 });
      }),
    );
    renderWithProviders(<MerchantsPage />, { route: `/merchants?merchant=${current.id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica esercente' });
    await user.click(await within(drawer).findByRole('button', { name: 'Sospendi' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sospendere questo esercente?' });
    expect(patch).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Sospendi' }));
    await waitFor(() => expect(patch).toEqual({ status: 'suspended', version: 2 }));
  });

  it('after an edit conflict, reloads the merchant keeping the Insegna typed and the address city changed meanwhile, and saves on the fresh version', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const opened = merchant();
    answerList([opened]);
    // Someone else moves the merchant to Bergamo once the drawer is open.
    let stored = opened;
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get(`/api/admin/merchants/${opened.id}`, () => HttpResponse.json(stored)),
      http.patch(`/api/admin/merchants/${opened.id}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        if (body.version !== stored.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } }, { status: 409 });
        }
        stored = { ...stored, ...(body as Partial<typeof stored>), version: stored.version + 1 };
        return HttpResponse.json(stored);
      }),
    );
    renderWithProviders(<MerchantsPage />, { route: `/merchants?merchant=${opened.id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica esercente' });
    const sign = await within(drawer).findByRole('textbox', { name: 'Insegna' });
    stored = { ...opened, address: { ...opened.address, city: 'Bergamo' }, version: opened.version + 1 };
    await user.clear(sign);
    await user.type(sign, 'Bar Nuovo');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await user.click(within(await within(drawer).findByRole('alert')).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await within(drawer).findByRole('status')).toHaveTextContent('Città: ora «Bergamo»');
    expect(within(drawer).getByRole('textbox', { name: 'Insegna' })).toHaveValue('Bar Nuovo');
    await user.click(within(drawer).getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toMatchObject({ signName: 'Bar Nuovo', address: { city: 'Bergamo' }, version: opened.version + 1 });
  });

  it('asks before Esc throws away a changed Insegna: "Annulla" keeps it, confirming discards it; unchanged, Esc closes at once', async () => {
    const user = userEvent.setup();
    const current = merchant();
    answerList([current]);
    server.use(http.get(`/api/admin/merchants/${current.id}`, () => HttpResponse.json(current)));
    const { router } = renderWithProviders(<MerchantsPage />, { route: `/merchants?merchant=${current.id}`, user: admin });
    let drawer = await screen.findByRole('dialog', { name: 'Modifica esercente' });
    const sign = await within(drawer).findByRole('textbox', { name: 'Insegna' });
    await user.clear(sign);
    await user.type(sign, 'Bar Nuovo');

    await user.keyboard('{Escape}');
    const warning = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(warning).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scartare le modifiche?' })).not.toBeInTheDocument());
    expect(router.state.location.search).toBe(`?merchant=${current.id}`);
    expect(within(drawer).getByRole('textbox', { name: 'Insegna' })).toHaveValue('Bar Nuovo');

    await user.click(within(drawer).getByRole('button', { name: 'Chiudi' }));
    const again = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(again).getByRole('button', { name: 'Scarta le modifiche' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Modifica esercente' })).not.toBeInTheDocument());

    await router.navigate(`/merchants?merchant=${current.id}`);
    drawer = await screen.findByRole('dialog', { name: 'Modifica esercente' });
    expect(await within(drawer).findByRole('textbox', { name: 'Insegna' })).toHaveValue('Bar Centrale');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('dialog', { name: 'Scartare le modifiche?' })).not.toBeInTheDocument();
  });

  it('puts the focus on the first field once the merchant has loaded, not on ✕', async () => {
    const current = merchant();
    answerList([current]);
    let release = () => undefined as void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get(`/api/admin/merchants/${current.id}`, async () => {
        await loaded;
        return HttpResponse.json(current);
      }),
    );
    renderWithProviders(<MerchantsPage />, { route: `/merchants?merchant=${current.id}`, user: admin });
    const drawer = await screen.findByRole('dialog', { name: 'Modifica esercente' });
    await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Chiudi' })).toHaveFocus());
    release();
    const legalName = await within(drawer).findByRole('textbox', { name: /^Ragione sociale/ });
    await waitFor(() => expect(legalName).toHaveFocus());
  });
});
