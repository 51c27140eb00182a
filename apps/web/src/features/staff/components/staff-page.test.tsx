import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { StaffAccount } from '@sf/contract/staff';
import type { StaffInvitation } from '@sf/contract/staff-invitations';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { StaffPage } from './staff-page.tsx';

const ME = '00000000-0000-4000-8000-000000000001';
const admin = { role: 'admin' as const, uid: ME, email: 'admin@demo.test' };

function account(overrides: Partial<StaffAccount> = {}): StaffAccount {
  return { uid: ME, email: 'admin@demo.test', displayName: 'Giulia Rossi', role: 'admin', status: 'active', createdAt: '2026-01-10T09:00:00.000Z', ...overrides };
}
const waiting = account({ uid: '00000000-0000-4000-8000-000000000002', email: 'new.hire@example.test', displayName: 'Nuovo Arrivo', role: null });
const editor = account({ uid: '00000000-0000-4000-8000-000000000003', email: 'editor@demo.test', displayName: 'Marco Bianchi', role: 'editor' });

function answerStaff(items: StaffAccount[]) {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/staff', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(params);
      const list = params.get('role') === 'none' ? items.filter((item) => item.role === null) : items;
      return HttpResponse.json({ items: list, total: list.length, page: 1, pageSize: 25 });
    }),
  );
  return seen;
}

describe('Staff', { timeout: 30_000 }, () => {
  it('lists the accounts waiting first, with the count, an Approve button for them and none on one’s own row', async () => {
    const seen = answerStaff([waiting, account(), editor]);
    renderWithProviders(<StaffPage />, { route: '/staff', user: admin });
    const row = (await screen.findByText('new.hire@example.test')).closest('tr')!;
    expect(within(row).getByText('In attesa di approvazione')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Approva: Nuovo Arrivo' })).toBeInTheDocument();
    const own = screen.getByText('admin@demo.test').closest('tr')!;
    expect(within(own).getByText('Sei tu')).toBeInTheDocument();
    expect(within(own).queryByRole('button')).toBeNull();
    expect(await screen.findByText('1 account attende la tua approvazione.')).toBeInTheDocument();
    const listCall = seen.find((params) => params.get('pageSize') !== '1')!;
    expect(Object.fromEntries(listCall)).toMatchObject({ sort: 'waiting', order: 'asc' });
  });

  it('approves with the chosen role after a confirmation', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerStaff([waiting, account()]);
    let body: unknown = null;
    server.use(
      http.patch(`/api/admin/staff/${waiting.uid}`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ ...waiting, role: 'admin' });
      }),
    );
    renderWithProviders(<StaffPage />, { route: '/staff', user: admin });
    await user.click(await screen.findByRole('button', { name: 'Approva: Nuovo Arrivo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approva Nuovo Arrivo' });
    expect(body).toBeNull();
    await user.click(within(dialog).getByLabelText('Ruolo', { selector: 'input' }));
    // The dialog's role picker (the list's role filter is a native select with the same option).
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Amministratore', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Approva' }));
    await waitFor(() => expect(body).toEqual({ role: 'admin' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the API’s refusal (last active admin) in the dialog and keeps it open', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const other = account({ uid: '00000000-0000-4000-8000-000000000004', email: 'boss@example.test', displayName: 'Anna Blu' });
    answerStaff([account(), other]);
    server.use(
      http.patch(`/api/admin/staff/${other.uid}`, () =>
        HttpResponse.json(
          { error: { code: 'last_admin', message: "È l'ultimo amministratore attivo: nomina prima un altro amministratore", requestId: 'r' } },
          { status: 409 },
        ),
      ),
    );
    renderWithProviders(<StaffPage />, { route: '/staff', user: admin });
    await user.click(await screen.findByRole('button', { name: 'Azioni per Anna Blu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Disattiva', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Disattivare Anna Blu?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disattiva' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("È l'ultimo amministratore attivo");
  });

  it('invites from the Invitations tab; an address with an account gets the API’s text on the e-mail field', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerStaff([account()]);
    const invitation: StaffInvitation = {
      id: '00000000-0000-4000-8000-0000000000aa',
      email: 'old@example.test',
      displayName: 'Vecchio Invito',
      role: 'editor',
      status: 'expired',
      invitedBy: 'admin@demo.test',
      createdAt: '2026-01-01T09:00:00.000Z',
      sentAt: '2026-01-01T09:00:00.000Z',
      expiresAt: '2026-01-08T09:00:00.000Z',
    };
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/admin/staff/invitations', () => HttpResponse.json({ items: [invitation], total: 1, page: 1, pageSize: 25 })),
      http.post('/api/admin/staff/invitations', async ({ request }) => {
        const body = (await request.json()) as { email: string };
        bodies.push(body);
        if (body.email === 'editor@demo.test') {
          return HttpResponse.json(
            { error: { code: 'account_exists', message: 'Esiste già un account con questa e-mail', fields: [{ field: 'email', message: 'Esiste già un account con questa e-mail' }], requestId: 'r' } },
            { status: 409 },
          );
        }
        return HttpResponse.json({ ...invitation, email: body.email, status: 'pending' }, { status: 201 });
      }),
    );
    renderWithProviders(<StaffPage />, { route: '/staff?tab=invitations', user: admin });
    const row = (await screen.findByText('old@example.test')).closest('tr')!;
    expect(within(row).getByText('Scaduto')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invita' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invita nello staff' });
    await user.click(within(dialog).getByRole('button', { name: "Invia l'invito" }));
    expect(await within(dialog).findByText(/^Nome visualizzato è/)).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByRole('textbox', { name: /Nome visualizzato/ }), 'Marco Bianchi');
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'editor@demo.test');
    await user.click(within(dialog).getByRole('button', { name: "Invia l'invito" }));
    expect(await within(dialog).findByText('Esiste già un account con questa e-mail')).toBeInTheDocument();
    expect(bodies).toEqual([{ displayName: 'Marco Bianchi', email: 'editor@demo.test', role: 'editor' }]);
    await user.clear(within(dialog).getByRole('textbox', { name: /^Email/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'nuovo@example.test');
    await user.click(within(dialog).getByRole('button', { name: "Invia l'invito" }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies.at(-1)).toEqual({ displayName: 'Marco Bianchi', email: 'nuovo@example.test', role: 'editor' });
  });

  it("an invitation whose e-mail did not go out (503) is listed at once, and the dialog says so in the server's words", async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerStaff([account()]);
    const saved: StaffInvitation[] = [];
    const NOT_SENT = "L'invito è salvato ma la sua e-mail non è partita: rinvialo più tardi";
    server.use(
      http.get('/api/admin/staff/invitations', () => HttpResponse.json({ items: saved, total: saved.length, page: 1, pageSize: 25 })),
      http.post('/api/admin/staff/invitations', async ({ request }) => {
        const body = (await request.json()) as { email: string; displayName: string };
        saved.push({
          id: '00000000-0000-4000-8000-0000000000bb',
          email: body.email,
          displayName: body.displayName,
          role: 'editor',
          status: 'pending',
          invitedBy: 'admin@demo.test',
          createdAt: '2026-01-01T09:00:00.000Z',
          sentAt: '2026-01-01T09:00:00.000Z',
          expiresAt: '2026-01-08T09:00:00.000Z',
        });
        return HttpResponse.json({ error: { code: 'mail_unavailable', message: NOT_SENT, requestId: 'r' } }, { status: 503 });
      }),
    );
    renderWithProviders(<StaffPage />, { route: '/staff?tab=invitations', user: admin });
    await user.click(await screen.findByRole('button', { name: 'Invita' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invita nello staff' });
    await user.type(within(dialog).getByRole('textbox', { name: /Nome visualizzato/ }), 'Marco Bianchi');
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'nuovo@example.test');
    await user.click(within(dialog).getByRole('button', { name: "Invia l'invito" }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(NOT_SENT);
    expect(await screen.findByText('nuovo@example.test', { selector: 'td, td *' })).toBeInTheDocument();
  });
});
