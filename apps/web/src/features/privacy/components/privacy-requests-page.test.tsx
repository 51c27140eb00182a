import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { PrivacyRequest } from '@sf/contract/privacy';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import type { RenderCustomerPicker } from './new-privacy-request-dialog.tsx';
import { PrivacyRequestsPage } from './privacy-requests-page.tsx';

const admin = { role: 'admin' as const, timeZone: 'Europe/Rome' };
const REQUEST_ID = '00000000-0000-4000-8000-0000000000d1';
const CUSTOMER_ID = '00000000-0000-4000-8000-0000000000c1';

function request(overrides: Partial<PrivacyRequest> = {}): PrivacyRequest {
  return {
    id: REQUEST_ID,
    kind: 'access',
    customerId: CUSTOMER_ID,
    customerName: 'Giulia Bianchi',
    customerCardNumber: '8012345678903',
    customerStatus: 'active',
    receivedAt: '2026-11-02T09:00:00.000Z',
    dueAt: '2026-12-02T09:00:00.000Z',
    daysLeft: 20,
    extensionReason: null,
    extendedAt: null,
    status: 'open',
    notes: null,
    handledBy: null,
    handledByEmail: null,
    handledByName: null,
    handledAt: null,
    isProcessingBlocked: false,
    outcome: [],
    version: 3,
    createdAt: '2026-11-02T09:00:00.000Z',
    updatedAt: '2026-11-02T09:00:00.000Z',
    ...overrides,
  };
}

/** The customers feature's search, as the route composes it: here a button that picks one customer. */
const renderCustomerPicker: RenderCustomerPicker = ({ value, onChange, error }) => (
  <div>
    {value ? <p>Cliente scelto: {value.label}</p> : null}
    <button type="button" onClick={() => onChange({ id: CUSTOMER_ID, label: 'Giulia Bianchi · 8012345678903' })}>
      Scegli Giulia Bianchi
    </button>
    {error ? <p>{error}</p> : null}
  </div>
);

type Sent = { method: string; body: Record<string, unknown> };

/** A new request's POST answered with `created` (and `created` behind the list and its drawer); returns the bodies sent. */
function answerCreation(created: PrivacyRequest): unknown[] {
  answer(created);
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/admin/privacy-requests', async ({ request: call }) => {
      bodies.push(await call.json());
      return HttpResponse.json(created, { status: 201 });
    }),
  );
  return bodies;
}

/** The list, one request behind the drawer, and its PATCH and actions, answered with `after(body)`. */
function answer(current: PrivacyRequest, after: (body: Record<string, unknown>) => Partial<PrivacyRequest> = () => ({})) {
  const seen: URLSearchParams[] = [];
  const sent: Sent[] = [];
  server.use(
    http.get('/api/admin/privacy-requests', ({ request: call }) => {
      seen.push(new URL(call.url).searchParams);
      return HttpResponse.json({ items: [current], total: 1, page: 1, pageSize: 25 });
    }),
    http.get(`/api/admin/privacy-requests/${current.id}`, () => HttpResponse.json(current)),
    http.patch(`/api/admin/privacy-requests/${current.id}`, async ({ request: call }) => {
      const body = (await call.json()) as Record<string, unknown>;
      sent.push({ method: 'PATCH', body });
      return HttpResponse.json({ ...current, ...after(body), version: current.version + 1 });
    }),
    http.post(`/api/admin/privacy-requests/${current.id}/actions`, async ({ request: call }) => {
      const body = (await call.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', body });
      const changed = { ...current, ...after(body), version: current.version + 1 };
      return HttpResponse.json(body['action'] === 'export' ? { request: changed, export: { customer: { firstName: 'Giulia' } } } : { request: changed });
    }),
  );
  return { seen, sent };
}

function renderPage(route: string) {
  return renderWithProviders(<PrivacyRequestsPage renderCustomerPicker={renderCustomerPicker} customerHref={(id) => `/customers/${id}`} />, { route, user: admin });
}

async function openDrawer() {
  const drawer = await screen.findByRole('dialog', { name: 'Richiesta privacy' });
  await within(drawer).findByText('Giulia Bianchi · 8012345678903');
  return drawer;
}

afterEach(() => vi.restoreAllMocks());

describe('Richieste privacy', { timeout: 30_000 }, () => {
  it('lists the queue by deadline with the days left, the urgent ones said in words, and the filters of the URL', async () => {
    const user = userEvent.setup();
    const items = [
      request({ id: '00000000-0000-4000-8000-0000000000e1', daysLeft: 3, kind: 'erasure' }),
      request({ id: '00000000-0000-4000-8000-0000000000e2', daysLeft: -2, kind: 'erasure', customerStatus: 'erased', customerName: '', customerCardNumber: '8099999999994', extendedAt: '2026-11-10T09:00:00.000Z' }),
      request({ id: '00000000-0000-4000-8000-0000000000e3', daysLeft: 20, kind: 'erasure', customerName: 'Marco Verdi' }),
    ];
    const seen: URLSearchParams[] = [];
    server.use(
      http.get('/api/admin/privacy-requests', ({ request: call }) => {
        seen.push(new URL(call.url).searchParams);
        return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
      }),
    );
    renderPage('/privacy-requests?isPending=true&kind=erasure');
    const urgent = (await screen.findAllByText('Giulia Bianchi · 8012345678903'))[0]!.closest('tr')!;
    expect(within(urgent).getByTitle('Meno di 7 giorni alla scadenza')).toHaveTextContent('3 giorni');
    const late = screen.getByText('Cliente cancellato · 8099999999994').closest('tr')!;
    expect(within(late).getByText('scaduta da 2 giorni')).toBeInTheDocument();
    expect(within(late).getByText(/\(prorogata\)/)).toBeInTheDocument();
    const calm = screen.getByText('Marco Verdi · 8012345678903').closest('tr')!;
    expect(within(calm).getByText('20 giorni')).toBeInTheDocument();
    expect(within(calm).queryByTitle('Meno di 7 giorni alla scadenza')).toBeNull();
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ isPending: 'true', kind: 'erasure', sort: 'dueAt', order: 'asc' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Coda' }), 'Chiuse');
    await waitFor(() => expect(seen.at(-1)!.get('isPending')).toBe('false'));
  });

  it('says why a request it cannot open is not shown, in the drawer, instead of loading for ever', async () => {
    answer(request());
    server.use(http.get('/api/admin/privacy-requests/00000000-0000-4000-8000-0000000000aa', () => HttpResponse.json({ error: { code: 'not_found', message: 'Richiesta privacy richiesta non trovata', requestId: 'r' } }, { status: 404 })));
    renderPage('/privacy-requests?request=00000000-0000-4000-8000-0000000000aa');
    const drawer = await screen.findByRole('dialog', { name: 'Richiesta privacy' });
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent("Richiesta privacy non trovataNessuna richiesta privacy a questo indirizzo: il link è sbagliato o la richiesta non c'è più.");
    expect(alert).not.toHaveTextContent('Richiesta privacy richiesta non trovata');
  });

  it('records a new request only once a customer is chosen, then opens it', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const created = request({ id: '00000000-0000-4000-8000-0000000000d9', kind: 'erasure' });
    const bodies = answerCreation(created);
    const { router } = renderPage('/privacy-requests?request=new');
    const dialog = await screen.findByRole('dialog', { name: 'Nuova richiesta privacy' });
    await user.click(within(dialog).getByRole('button', { name: 'Registra la richiesta' }));
    expect(await within(dialog).findByText('Scegli il cliente')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.click(within(dialog).getByLabelText(/Tipo di richiesta/, { selector: 'input' }));
    // The dialog's picker (the list's kind filter is a native select with the same option).
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Cancellazione', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Scegli Giulia Bianchi' }));
    expect(within(dialog).queryByText('Scegli il cliente')).toBeNull();
    await user.type(await within(dialog).findByRole('textbox', { name: 'Ricevuta il' }), '2/11/2026');
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), '  Ricevuta per raccomandata  ');
    await user.click(within(dialog).getByRole('button', { name: 'Registra la richiesta' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    // The day typed, at noon in the user's zone (Rome, UTC+1): the same day wherever the browser is.
    expect(bodies[0]).toEqual({ kind: 'erasure', customerId: CUSTOMER_ID, receivedAt: '2026-11-02T11:00:00.000Z', notes: 'Ricevuta per raccomandata' });
    await waitFor(() => expect(router.state.location.search).toBe(`?request=${created.id}`));
    expect(await screen.findByText('Richiesta registrata.')).toBeInTheDocument();
  });

  it('records a request received today as received now, and refuses a day after today by name, keeping it', async () => {
    // 09:00 in the user's zone (Rome): noon of today has not come yet, whatever the browser's zone.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T08:00:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const created = request({ id: '00000000-0000-4000-8000-0000000000da' });
    const bodies = answerCreation(created);
    renderPage('/privacy-requests?request=new');
    const dialog = await screen.findByRole('dialog', { name: 'Nuova richiesta privacy' });
    await user.click(within(dialog).getByRole('button', { name: 'Scegli Giulia Bianchi' }));
    const day = await within(dialog).findByRole('textbox', { name: 'Ricevuta il' });
    await user.type(day, '28/11/2026');
    await user.tab();
    // Kept as typed and refused by name: it used to vanish, and the request went in as received today.
    expect(day).toHaveValue('28/11/2026');
    expect(within(dialog).getByText('Ricevuta il: la data non può essere futura')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Registra la richiesta' }));
    expect(day).toHaveFocus();
    // The calendar stays closed, off the text that says why.
    expect(screen.queryByRole('button', { name: '28 novembre 2026' })).toBeNull();
    expect(bodies).toEqual([]);
    await user.clear(day);
    await user.type(day, '27/11/2026');
    await user.tab();
    expect(day).toHaveValue('27/11/2026');
    expect(within(dialog).queryByText('Ricevuta il: la data non può essere futura')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Registra la richiesta' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ kind: 'access', customerId: CUSTOMER_ID });
  });

  it('opens a new request empty after one was cancelled, not with the customer chosen before', async () => {
    const user = userEvent.setup();
    answer(request());
    renderPage('/privacy-requests?request=new');
    let dialog = await screen.findByRole('dialog', { name: 'Nuova richiesta privacy' });
    await user.click(within(dialog).getByLabelText(/Tipo di richiesta/, { selector: 'input' }));
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Cancellazione', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Scegli Giulia Bianchi' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Telefonata');
    await user.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nuova richiesta privacy' })).toBeNull());

    await user.click(screen.getByRole('link', { name: 'Nuova richiesta' }));
    dialog = await screen.findByRole('dialog', { name: 'Nuova richiesta privacy' });
    expect(within(dialog).queryByText(/Cliente scelto/)).toBeNull();
    expect(within(dialog).getByLabelText(/Tipo di richiesta/, { selector: 'input' })).toHaveValue('Accesso');
    expect(within(dialog).getByRole('textbox', { name: 'Note' })).toHaveValue('');
  });

  it('extends the deadline once, with a reason of at least three characters', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { sent } = answer(request(), (body) => ({ extensionReason: String(body['extensionReason']), extendedAt: '2026-11-20T09:00:00.000Z', dueAt: '2027-02-02T09:00:00.000Z' }));
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await openDrawer();
    await user.click(within(drawer).getByRole('button', { name: 'Proroga di due mesi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prorogare la scadenza?' });
    const confirm = within(dialog).getByRole('button', { name: 'Proroga' });
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'ab');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'c richiesta complessa');
    await user.click(confirm);
    await waitFor(() => expect(sent).toEqual([{ method: 'PATCH', body: { extensionReason: 'abc richiesta complessa', version: 3 } }]));
    expect(await screen.findByText('Scadenza prorogata.')).toBeInTheDocument();
    expect(await within(drawer).findByText('abc richiesta complessa')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Proroga di due mesi' })).toBeNull();
  });

  it('erases the personal data only after its confirmation', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { sent } = answer(request({ kind: 'erasure' }), () => ({ status: 'done', customerStatus: 'erased', customerName: '', daysLeft: null }));
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await openDrawer();
    await user.click(within(drawer).getByRole('button', { name: 'Cancella i dati personali' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancellare i dati personali?' });
    expect(within(dialog).getByText(/non si può annullare/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancellare i dati personali?' })).toBeNull());
    expect(sent).toEqual([]);

    await user.click(within(drawer).getByRole('button', { name: 'Cancella i dati personali' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancellare i dati personali?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancella definitivamente' }));
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', body: { action: 'erase', version: 3 } }]));
    expect(await screen.findByText('Dati personali cancellati.')).toBeInTheDocument();
    expect(await within(drawer).findByText('Dati cancellati')).toBeInTheDocument();
  });

  it('shows a request the erasure closed as such, under "Cliente cancellato", with no action left to take', async () => {
    const superseded = request({
      kind: 'restriction',
      status: 'done',
      customerStatus: 'erased',
      customerName: '',
      customerCardNumber: '8099999999994',
      daysLeft: null,
      isProcessingBlocked: true,
      handledByEmail: 'admin@demo.test',
      handledAt: '2026-11-20T10:00:00.000Z',
      outcome: [{ action: 'superseded', erasureRequestId: '00000000-0000-4000-8000-0000000000e9', at: '2026-11-20T10:00:00.000Z', by: 'admin@demo.test' }],
    });
    answer(superseded);
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await screen.findByRole('dialog', { name: 'Richiesta privacy' });
    expect(await within(drawer).findByText('Cliente cancellato · 8099999999994')).toBeInTheDocument();
    expect(within(drawer).getByText(/Chiusa dalla cancellazione dei dati/)).toBeInTheDocument();
    // The API refuses any action on an erased person's request (409 customer_erased): none is offered.
    expect(within(drawer).queryByRole('button', { name: 'Revoca il blocco' })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: 'Segna come evasa' })).toBeNull();
  });

  it('applies a processing block after its confirmation, and lifts it only with a reason', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const blocked = request({ kind: 'restriction', status: 'in_progress', isProcessingBlocked: true, version: 4 });
    const { sent } = answer(request({ kind: 'restriction' }), () => ({ status: 'in_progress', isProcessingBlocked: true }));
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await openDrawer();
    await user.click(within(drawer).getByRole('button', { name: 'Applica il blocco' }));
    const ask = await screen.findByRole('dialog', { name: 'Applicare il blocco?' });
    await user.click(within(ask).getByRole('button', { name: 'Applica il blocco' }));
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', body: { action: 'restrict', version: 3 } }]));
    expect(await within(drawer).findByText('Trattamento limitato')).toBeInTheDocument();

    // The request now reads blocked, at its new version.
    const lifted = answer(blocked, () => ({ isProcessingBlocked: false }));
    await user.click(within(drawer).getByRole('button', { name: 'Revoca il blocco' }));
    const lift = await screen.findByRole('dialog', { name: 'Revocare il blocco?' });
    const confirm = within(lift).getByRole('button', { name: 'Revoca il blocco' });
    expect(confirm).toBeDisabled();
    await user.type(within(lift).getByRole('textbox', { name: /Motivo/ }), 'Contestazione risolta');
    await user.click(confirm);
    await waitFor(() => expect(lifted.sent).toEqual([{ method: 'POST', body: { action: 'lift', reason: 'Contestazione risolta', version: 4 } }]));
    expect(await screen.findByText('Blocco revocato.')).toBeInTheDocument();
  });

  it('downloads the person’s data as a JSON file named after the card, without asking', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const saved: { name: string; blob: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    URL.createObjectURL = vi.fn((blob: Blob) => {
      const url = `blob:${blobs.size}`;
      blobs.set(url, blob);
      return url;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.href)! });
    });
    const { sent } = answer(request(), () => ({ status: 'in_progress' }));
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await openDrawer();
    await user.click(within(drawer).getByRole('button', { name: 'Scarica i dati (JSON)' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(sent).toEqual([{ method: 'POST', body: { action: 'export', version: 3 } }]);
    expect(saved[0]!.name).toBe('dati-personali-8012345678903.json');
    expect(JSON.parse(await saved[0]!.blob.text())).toEqual({ customer: { firstName: 'Giulia' } });
    expect(await screen.findByText('File dei dati scaricato.')).toBeInTheDocument();
  });

  it('rejects a request only with a reason, and then offers no more actions', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { sent } = answer(request(), () => ({ status: 'rejected', daysLeft: null }));
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await openDrawer();
    await user.click(within(drawer).getByRole('button', { name: 'Respingi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Respingere la richiesta?' });
    expect(within(dialog).getByRole('button', { name: 'Respingi' })).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'Identità non verificata');
    await user.click(within(dialog).getByRole('button', { name: 'Respingi' }));
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', body: { action: 'close', reason: 'Identità non verificata', isRejected: true, version: 3 } }]));
    expect(await within(drawer).findByText('Respinta')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Segna come evasa' })).toBeNull();
  });

  it('marks a request done only after its confirmation', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { sent } = answer(request(), () => ({ status: 'done', daysLeft: null }));
    renderPage(`/privacy-requests?request=${REQUEST_ID}`);
    const drawer = await openDrawer();
    await user.click(within(drawer).getByRole('button', { name: 'Segna come evasa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Segnare la richiesta come evasa?' });
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Segna come evasa' }));
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', body: { action: 'close', version: 3 } }]));
    expect(await screen.findByText('Richiesta chiusa.')).toBeInTheDocument();
    expect(await within(drawer).findByText('Evasa')).toBeInTheDocument();
  });
});

describe('who handled a privacy request', { timeout: 30_000 }, () => {
  it('is named by the staff member, on the list and in the drawer, with the e-mail on hover', async () => {
    const named = request({
      daysLeft: null,
      status: 'done',
      handledBy: '00000000-0000-4000-8000-0000000000a1',
      handledByEmail: 'admin@demo.test',
      handledByName: 'Giulia Rossi',
      handledAt: '2026-11-03T10:00:00.000Z',
      updatedAt: '2026-11-03T10:00:00.000Z',
    });
    const open = request({ id: '00000000-0000-4000-8000-0000000000d2' });
    server.use(
      http.get('/api/admin/privacy-requests', () => HttpResponse.json({ items: [named, open], total: 2, page: 1, pageSize: 25 })),
      http.get(`/api/admin/privacy-requests/${named.id}`, () => HttpResponse.json(named)),
    );
    renderWithProviders(<PrivacyRequestsPage renderCustomerPicker={() => null} customerHref={(id) => `/customers/${id}`} />, {
      route: `/privacy-requests?request=${named.id}`,
      user: admin,
    });
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Giulia Rossi')).toHaveAttribute('title', 'admin@demo.test');
    expect(within(table).queryByText('admin@demo.test')).not.toBeInTheDocument();
    const drawer = await screen.findByRole('dialog', { name: 'Richiesta privacy' });
    expect(await within(drawer).findByText(/^Giulia Rossi · /)).toHaveAttribute('title', 'admin@demo.test');
  });
});
