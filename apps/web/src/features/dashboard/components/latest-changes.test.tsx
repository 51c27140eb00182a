import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { dashboardAnswer } from '../testing/dashboard-fixtures.ts';
import { DashboardPage } from './dashboard-page.tsx';

describe('Ultime modifiche', () => {
  it('says each change and its author in words, never the stored action, entity or actor name', async () => {
    const answer = dashboardAnswer();
    answer.latestChanges = [
      { id: 5, at: '2026-11-21T15:06:00.000Z', actorId: null, actorEmail: 'system', action: 'vouchers.generate', entityType: 'reward', entityId: 'eaf8d935-693b-44f9-b05e-ed3910b8a833', requestId: null, record: { name: 'Caffè omaggio', isErased: false } },
      { id: 4, at: '2026-11-21T15:05:00.000Z', actorId: null, actorEmail: 'system', action: 'ledger.expire', entityType: 'ledger_entry', entityId: '58009', requestId: null, record: null },
      { id: 3, at: '2026-11-21T15:04:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'ledger.earn', entityType: 'ledger_entry', entityId: '58008', requestId: null, record: null },
      { id: 2, at: '2026-11-21T15:00:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'create', entityType: 'social_proof', entityId: '18', requestId: null, record: null },
      { id: 1, at: '2026-11-21T14:00:00.000Z', actorId: null, actorEmail: null, action: 'something.new', entityType: 'new_thing', entityId: '7', requestId: null, record: null },
    ];
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: { role: 'admin' } });
    const section = (await screen.findByRole('heading', { name: 'Ultime modifiche' })).closest('section')!;
    expect(within(section).getByText('Accredito movimento n. 58008')).toBeInTheDocument();
    // The verb agrees with its entity: a "prova social" is feminine.
    expect(within(section).getByText('Creata prova social n. 18')).toBeInTheDocument();
    expect(within(section).getByText('Modifica elemento n. 7')).toBeInTheDocument();
    // The system's own changes (stored as "system") and one with nobody signed in.
    expect(within(section).getAllByText('Sistema')).toHaveLength(3);
    // A record is named (a reward by its name, not the bare word "premio") and opens its page; a generated id is not printed.
    expect(within(section).getByRole('link', { name: 'premio “Caffè omaggio”' })).toHaveAttribute('href', '/rewards/eaf8d935-693b-44f9-b05e-ed3910b8a833');
    expect(section).toHaveTextContent('Generati i codici per premio “Caffè omaggio”');
    expect(section).not.toHaveTextContent(/ledger|social_proof|new_thing|system|eaf8d935/);
  });

  it('words what an action is, not its verb and kind: opening a customer\'s page makes the card link, it enrols nobody', async () => {
    const answer = dashboardAnswer();
    const membership = '6e2b8564-2b00-43db-a2fd-1ba19f15e4b7';
    const customer = { entityType: 'customer', entityId: 'c0a80121-0000-4000-8000-000000000001', record: { name: 'Anna Neri', isErased: false } };
    answer.latestChanges = [
      { id: 6, at: '2026-11-21T15:06:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'card_link.create', entityType: 'membership', entityId: membership, requestId: null, record: { name: 'Anna Neri', isErased: false } },
      { id: 5, at: '2026-11-21T15:05:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'block', ...customer, requestId: null },
      { id: 4, at: '2026-11-21T15:04:00.000Z', actorId: null, actorEmail: 'system', action: 'ledger.integrity.mismatch', entityType: 'ledger', entityId: null, requestId: null, record: null },
      { id: 3, at: '2026-11-21T15:03:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'consent_withdraw', ...customer, record: { name: null, isErased: true }, requestId: null },
    ];
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: { role: 'admin' } });
    const section = (await screen.findByRole('heading', { name: 'Ultime modifiche' })).closest('section')!;
    const rows = within(section).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/Creato il link della tessera per iscrizione “Anna Neri”$/);
    expect(rows[2]).toHaveTextContent(/Bloccato cliente “Anna Neri”$/);
    expect(within(rows[2]!).getByRole('link', { name: 'cliente “Anna Neri”' })).toHaveAttribute('href', `/customers/${customer.entityId}`);
    expect(rows[3]).toHaveTextContent(/Il controllo notturno ha trovato dati diversi dal registro$/);
    // An erased customer: the kind in words, no name.
    expect(rows[4]).toHaveTextContent(/Revocato un consenso del cliente$/);
    expect(section).not.toHaveTextContent(/Creata iscrizione|Modifica/);
  });

  it('words the card link in English too', async () => {
    const answer = dashboardAnswer();
    answer.latestChanges = [
      { id: 2, at: '2026-11-21T15:06:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'card_link.create', entityType: 'membership', entityId: '6e2b8564-2b00-43db-a2fd-1ba19f15e4b7', requestId: null, record: { name: 'Anna Neri', isErased: false } },
      { id: 1, at: '2026-11-21T15:05:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'card_link.email', entityType: 'membership', entityId: '6e2b8564-2b00-43db-a2fd-1ba19f15e4b7', requestId: null, record: { name: 'Anna Neri', isErased: false } },
    ];
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: { role: 'admin' }, language: 'en' });
    const section = (await screen.findByRole('heading', { name: 'Latest changes' })).closest('section')!;
    const rows = within(section).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/Created the card link for membership “Anna Neri”$/);
    expect(rows[2]).toHaveTextContent(/E-mailed the card link for membership “Anna Neri”$/);
    expect(section).not.toHaveTextContent(/Created membership|Edit/);
  });

  it('reads as a sentence in English too: the verb before the entity it acts on', async () => {
    const answer = dashboardAnswer();
    answer.latestChanges = [
      { id: 2, at: '2026-11-21T15:06:00.000Z', actorId: null, actorEmail: 'system', action: 'vouchers.generate', entityType: 'reward', entityId: 'eaf8d935-693b-44f9-b05e-ed3910b8a833', requestId: null, record: { name: 'Caffè omaggio', isErased: false } },
      { id: 1, at: '2026-11-21T15:00:00.000Z', actorId: 'u', actorEmail: 'admin@demo.test', action: 'create', entityType: 'social_proof', entityId: '18', requestId: null, record: null },
    ];
    server.use(http.get('/api/admin/dashboard', () => HttpResponse.json(answer)));
    renderWithProviders(<DashboardPage />, { route: '/dashboard', user: { role: 'admin' }, language: 'en' });
    const section = (await screen.findByRole('heading', { name: 'Latest changes' })).closest('section')!;
    expect(section).toHaveTextContent('Generated codes for reward “Caffè omaggio”');
    expect(within(section).getByText('Created social proof #18')).toBeInTheDocument();
  });
});
