import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { ProgramServiceEmails } from './program-service-emails.tsx';

const PROGRAM = '5b0c7d1e-2f3a-4b5c-8d9e-0a1b2c3d4e5f';
const setting = (kind: string, subjectIt: string) => ({
  kind,
  isEnabled: false,
  subjectIt,
  bodyIt: 'Ciao {{nome}}',
  subjectEn: 'Hi',
  bodyEn: 'Hello {{nome}}',
  isCustomised: false,
  version: 0,
});

describe('Messaggi automatici', { timeout: 30_000 }, () => {
  it('switches a message on with the version read, and names a refused placeholder on its field before sending', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.get(`/api/admin/programs/${PROGRAM}/service-emails`, () =>
        HttpResponse.json({ items: [setting('welcome', 'Benvenuto {{nome}}'), setting('voucher', 'Buono'), setting('birthday', 'Auguri'), setting('expiring', 'Punti in scadenza {{nome}}')] }),
      ),
      http.put(`/api/admin/programs/${PROGRAM}/service-emails/welcome`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        return HttpResponse.json({ ...setting('welcome', 'Benvenuto {{nome}}'), ...body, isCustomised: true, version: 1 });
      }),
    );
    renderWithProviders(<ProgramServiceEmails programId={PROGRAM} renderCustomerPicker={() => null} />, { route: '/programs', user: { role: 'admin' } });
    expect(await screen.findByDisplayValue('Benvenuto {{nome}}')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Invia questo messaggio' }));
    const body = screen.getByRole('textbox', { name: /^Testo \(italiano\)/ });
    await user.clear(body);
    await user.type(body, 'Ciao {{{{nom}}');
    await user.click(screen.getByRole('button', { name: 'Salva messaggio' }));
    expect(await screen.findByText(/^Testo \(italiano\): il segnaposto \{\{nom\}\} non esiste \(si possono usare \{\{nome\}\}, /)).toBeInTheDocument();
    expect(body).toHaveFocus();
    expect(bodies).toEqual([]);

    // The refused text is still unsaved: moving to another message asks before throwing it away.
    await user.click(within(screen.getByRole('radiogroup', { name: 'Messaggio' })).getByLabelText('Punti in scadenza'));
    const ask = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(ask).getByRole('button', { name: 'Annulla' }));
    await user.clear(body);
    await user.type(body, 'Ciao {{{{nome}}');
    await user.click(screen.getByRole('button', { name: 'Salva messaggio' }));
    expect(await screen.findByText('Messaggio salvato')).toBeInTheDocument();
    expect(bodies).toEqual([{ isEnabled: true, subjectIt: 'Benvenuto {{nome}}', bodyIt: 'Ciao {{nome}}', subjectEn: 'Hi', bodyEn: 'Hello {{nome}}', version: 0 }]);
  });

  it('after an edit conflict, reloads the message keeping the Italian text typed and the English subject changed meanwhile', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let welcome = setting('welcome', 'Benvenuto {{nome}}');
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.get(`/api/admin/programs/${PROGRAM}/service-emails`, () => HttpResponse.json({ items: [welcome, setting('voucher', 'Buono'), setting('birthday', 'Auguri'), setting('expiring', 'Punti')] })),
      http.put(`/api/admin/programs/${PROGRAM}/service-emails/welcome`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        if (body.version !== welcome.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } }, { status: 409 });
        }
        welcome = { ...welcome, ...(body as Partial<typeof welcome>), version: welcome.version + 1 };
        return HttpResponse.json(welcome);
      }),
    );
    renderWithProviders(<ProgramServiceEmails programId={PROGRAM} renderCustomerPicker={() => null} />, { route: '/programs', user: { role: 'admin' } });
    expect(await screen.findByDisplayValue('Benvenuto {{nome}}')).toBeInTheDocument();
    welcome = { ...welcome, subjectEn: 'Welcome {{nome}}', version: 1 };
    const body = screen.getByRole('textbox', { name: /^Testo \(italiano\)/ });
    await user.clear(body);
    await user.type(body, 'Ciao {{{{nome}}, benvenuto');
    await user.click(screen.getByRole('button', { name: 'Salva messaggio' }));
    await user.click(within(await screen.findByRole('alert', { name: 'Modifica in conflitto' })).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await screen.findByRole('status', { name: 'Dati ricaricati, con le tue modifiche riapplicate' })).toHaveTextContent('ora «Welcome {{nome}}»');
    expect(screen.getByRole('textbox', { name: /^Testo \(italiano\)/ })).toHaveValue('Ciao {{nome}}, benvenuto');
    await user.click(screen.getByRole('button', { name: 'Salva messaggio' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ bodyIt: 'Ciao {{nome}}, benvenuto', subjectEn: 'Welcome {{nome}}', version: 1 });
  });

  it('names an unknown placeholder in the English text on the first save, with every other problem', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    server.use(
      http.get(`/api/admin/programs/${PROGRAM}/service-emails`, () => HttpResponse.json({ items: [setting('welcome', 'Benvenuto {{nome}}'), setting('voucher', 'Buono'), setting('birthday', 'Auguri'), setting('expiring', 'Scadenza')] })),
      http.put(`/api/admin/programs/${PROGRAM}/service-emails/welcome`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ error: { code: 'validation', message: 'x', fields: [{ field: 'subjectIt', message: 'Oggetto (italiano) è obbligatorio' }], requestId: 'r' } }, { status: 400 });
      }),
    );
    renderWithProviders(<ProgramServiceEmails programId={PROGRAM} renderCustomerPicker={() => null} />, { route: '/programs', user: { role: 'admin' } });
    const subject = await screen.findByDisplayValue('Benvenuto {{nome}}');
    await user.clear(subject);
    const english = screen.getByRole('textbox', { name: /^Testo \(inglese\)/ });
    await user.clear(english);
    await user.type(english, 'Your balance: {{{{balance}}');
    await user.click(screen.getByRole('button', { name: 'Salva messaggio' }));
    // Both at once: the English text's placeholder used to wait for a second save.
    expect(await screen.findByText('Oggetto (italiano) è obbligatorio')).toBeInTheDocument();
    expect(screen.getByText(/^Testo \(inglese\): il segnaposto \{\{balance\}\} non esiste/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Oggetto \(italiano\)/ })).toHaveFocus();
    expect(bodies).toEqual([]);
  });
});
