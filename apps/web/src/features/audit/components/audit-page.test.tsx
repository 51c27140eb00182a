import type { AuditListEntry } from '@sf/contract/audit';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { changedFields } from './audit-change.tsx';
import { AuditPage } from './audit-page.tsx';

const entries: AuditListEntry[] = [
  { id: 2, at: '2026-11-21T15:04:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'merchant.update', entityType: 'merchant', entityId: 'm-1', before: { city: 'Bologna', phone: '051' }, after: { city: 'Modena', phone: '051' }, requestId: 'r', record: null, references: {} },
  { id: 1, at: '2026-11-21T14:00:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'read', entityType: 'customer', entityId: 'c-1', before: null, after: null, requestId: 'r', record: null, references: {} },
];

describe('AuditPage', () => {
  it('lists the log, filters the reads of personal data through the URL, and shows a change before/after', async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    server.use(
      http.get('/api/admin/audit', ({ request }) => {
        const search = new URL(request.url).searchParams;
        asked.push(search.get('action') ?? '');
        const items = search.get('action') === 'read' ? entries.filter((e) => e.action === 'read') : entries;
        return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
      }),
    );
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin' } });
    expect(await screen.findByText('merchant.update')).toBeInTheDocument();
    // In words, with the stored names the Azione and Entità filters take beneath them.
    const changed = screen.getByText('merchant.update').closest('tr')!;
    expect(within(changed).getByText('Modificato')).toBeInTheDocument();
    expect(within(changed).getByText('esercente · m-1')).toBeInTheDocument();
    expect(within(changed).getByText('merchant')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Prima/dopo della voce n. 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dettagli della voce' });
    const rows = within(dialog).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('CittàBolognaModena');
    await user.keyboard('{Escape}');
    await user.click(screen.getByText('Letture di dati personali'));
    await vi.waitFor(() => expect(asked.at(-1)).toBe('read'));
    expect(await screen.findByText('Lettura di dati personali')).toBeInTheDocument();
    expect(screen.queryByText('merchant.update')).not.toBeInTheDocument();
  });

  it('says a change in the operator’s words: labels, statuses, times on their clock, euro, Sì/No, objects; an unknown field as it is', async () => {
    const user = userEvent.setup();
    const merchantId = '6f1c2a9e-1b7d-4c1e-9a55-0c3f2d1e8b70';
    const customerId = '0b5e8f3a-2c4d-4e6f-8a1b-3c5d7e9f1a2b';
    const items: AuditListEntry[] = [
      {
        id: 3,
        at: '2026-11-27T10:15:00.000Z',
        actorId: 'u1',
        actorEmail: 'admin@demo.test',
        action: 'update',
        entityType: 'merchant',
        entityId: merchantId,
        before: { status: 'active', category: 'bar', updatedAt: '2026-11-20T08:00:00.000Z', address: { city: 'Bologna', province: 'BO' }, brandNewField: 'x1' },
        after: { status: 'suspended', category: 'florist', updatedAt: '2026-11-27T10:15:00.000Z', address: { city: 'Modena', province: 'MO' }, brandNewField: 'x2' },
        requestId: 'r',
        record: { name: 'Bar Centrale', isErased: false },
        references: {},
      },
      {
        id: 4,
        at: '2026-11-27T11:00:00.000Z',
        actorId: 'u1',
        actorEmail: 'admin@demo.test',
        action: 'update',
        entityType: 'program',
        entityId: 'p-1',
        before: { minSpendCents: 1050, pointsPerEuro: '1.00', expiry: { policy: 'never', days: null }, merchantIds: ['m-a'] },
        after: { minSpendCents: 250000, pointsPerEuro: '1.50', expiry: { policy: 'afterDays', days: 365 }, merchantIds: ['m-a', 'm-gone'] },
        requestId: 'r',
        record: null,
        // The API names what it knows; a merchant deleted since is not among them.
        references: { merchant: { 'm-a': { name: 'Fiori di Anna', isErased: false } } },
      },
      {
        id: 5,
        at: '2026-11-27T12:00:00.000Z',
        actorId: 'u1',
        actorEmail: 'admin@demo.test',
        action: 'update',
        entityType: 'customer',
        entityId: customerId,
        before: { marketingConsent: false },
        after: { marketingConsent: true },
        requestId: 'r',
        record: { name: null, isErased: true },
        references: {},
      },
    ];
    server.use(http.get('/api/admin/audit', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 })));
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin', timeZone: 'Europe/Rome' } });
    // The record by its name, opening its screen; an erased customer by a word, never a UUID.
    expect(await screen.findByRole('link', { name: 'Bar Centrale' })).toHaveAttribute('href', `/merchants?merchant=${merchantId}`);
    expect(screen.getByRole('link', { name: 'Cliente cancellato' })).toHaveAttribute('href', `/customers/${customerId}`);
    expect(screen.queryByText(new RegExp(merchantId))).not.toBeInTheDocument();
    expect(screen.getByText('programma · p-1')).toBeInTheDocument();

    const rowsOf = async (id: number) => {
      await user.click(screen.getByRole('button', { name: `Prima/dopo della voce n. ${id}` }));
      const dialog = await screen.findByRole('dialog', { name: 'Dettagli della voce' });
      return { dialog, rows: within(dialog).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent)) };
    };
    const merchant = await rowsOf(3);
    expect(merchant.rows).toEqual([
      ['Indirizzo', 'Città: BolognaProvincia: BO', 'Città: ModenaProvincia: MO'],
      ['brandNewField', 'x1', 'x2'],
      ['Categoria', 'Bar', 'Fioraio'],
      ['Stato', 'Attivo', 'Sospeso'],
      // Rome's clock (UTC+1 in November), Italian format: not 2026-11-27T10:15:00.000Z.
      ['Modificato il', '20/11/2026,\u00a009:00', '27/11/2026,\u00a011:15'],
    ]);
    expect(within(merchant.dialog).getByText(/esercente Bar Centrale/)).toBeInTheDocument();
    expect(within(merchant.dialog).getByRole('link', { name: 'Apri “Bar Centrale”' })).toHaveAttribute('href', `/merchants?merchant=${merchantId}`);
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const program = await rowsOf(4);
    expect(program.rows).toEqual([
      ['Scadenza', 'Regola di scadenza: MaiGiorni: —', "Regola di scadenza: Dopo N giorni dall'accreditoGiorni: 365"],
      // A merchant by its name; one the API did not name (deleted since) by its id.
      ['Esercenti', 'Fiori di Anna', 'Fiori di Anna, m-gone'],
      ['Spesa minima', '10,50\u00a0€', '2.500,00\u00a0€'],
      ['Punti per euro', '1', '1,5'],
    ]);
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const customer = await rowsOf(5);
    expect(customer.rows).toEqual([['Consenso marketing', 'No', 'Sì']]);
    expect(within(customer.dialog).getByText(/cliente Cliente cancellato/)).toBeInTheDocument();
  });

  it('names every kind of record, an erased customer by a word, and the ids inside a change by their records, never a UUID', async () => {
    const user = userEvent.setup();
    const uuid = (n: number) => `0b5e8f3a-2c4d-4e6f-8a1b-3c5d7e9f1a${String(n).padStart(2, '0')}`;
    const program = 'Circuito Centro Storico';
    const entry = (id: number, entityType: string, entityId: string, record: AuditListEntry['record'], rest: Partial<AuditListEntry> = {}): AuditListEntry => ({
      id,
      at: '2026-11-27T10:15:00.000Z',
      actorId: 'u1',
      actorEmail: 'admin@demo.test',
      action: 'update',
      entityType,
      entityId,
      before: null,
      after: null,
      requestId: 'r',
      record,
      references: {},
      ...rest,
    });
    const mario = { name: 'Mario Rossi', isErased: false };
    const erased = { name: null, isErased: true };
    const items: AuditListEntry[] = [
      entry(11, 'membership', uuid(1), { ...mario, parts: { program } }),
      entry(12, 'ledger_entry', '58542', { ...erased, parts: { program, points: -20, stamps: 0 } }),
      entry(13, 'voucher', '17', { name: 'Caffè omaggio', isErased: false, parts: { code: 'CAFE-7Q2X' } }),
      entry(14, 'social_proof', '9', { ...mario, parts: { kind: 'review' } }),
      entry(15, 'privacy_request', uuid(2), { ...erased, parts: { kind: 'erasure' } }),
      entry(16, 'import', uuid(3), { name: 'clienti.csv', isErased: false, parts: { kind: 'customers' } }),
      entry(17, 'customer', uuid(4), mario, {
        action: 'privacy_export',
        after: { customerId: uuid(4), referredBy: uuid(5), membershipId: uuid(1), rewardId: uuid(6), voucherId: 17, createdBy: uuid(7), importId: uuid(3), requestId: uuid(2), entryId: 58542, imageId: 'Qm9yZ2hldHRvLWZvdG8tMDEy' },
        references: {
          customer: { [uuid(4)]: mario, [uuid(5)]: erased },
          membership: { [uuid(1)]: { ...mario, parts: { program } } },
          reward: { [uuid(6)]: { name: 'Caffè omaggio', isErased: false } },
          voucher: { '17': { name: 'Caffè omaggio', isErased: false, parts: { code: 'CAFE-7Q2X' } } },
          user: { [uuid(7)]: { name: 'Anna Bianchi', isErased: false } },
          import: { [uuid(3)]: { name: 'clienti.csv', isErased: false, parts: { kind: 'customers' } } },
          privacy_request: { [uuid(2)]: { ...erased, parts: { kind: 'erasure' } } },
          ledger_entry: { '58542': { ...erased, parts: { program, points: -20, stamps: 0 } } },
          upload: { Qm9yZ2hldHRvLWZvdG8tMDEy: { name: 'vetrina.jpg', isErased: false } },
        },
      }),
    ];
    server.use(http.get('/api/admin/audit', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 })));
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin', timeZone: 'Europe/Rome' } });
    const entityOf = async (id: number) => {
      const row = (await screen.findByRole('button', { name: new RegExp(`della voce n. ${id}$`) })).closest('tr')!;
      // The cell's words, without the stored kind beneath them (its last line).
      const cell = within(row).getAllByRole('cell')[3]!;
      return cell.textContent!.slice(0, -cell.lastChild!.textContent!.length);
    };
    expect(await entityOf(11)).toBe(`iscrizione · Mario Rossi · ${program}`);
    expect(await entityOf(12)).toBe(`movimento · Cliente cancellato · -20 punti · ${program}`);
    expect(await entityOf(13)).toBe('buono · Caffè omaggio · CAFE-7Q2X');
    expect(await entityOf(14)).toBe('prova social · Mario Rossi · Recensione');
    expect(await entityOf(15)).toBe('richiesta privacy · Cancellazione · Cliente cancellato');
    expect(await entityOf(16)).toBe('importazione · clienti.csv · Clienti');

    await user.click(screen.getByRole('button', { name: 'Prima/dopo della voce n. 17' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dettagli della voce' });
    const rows = within(dialog).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(Object.fromEntries(rows.map(([field, , after]) => [field, after]))).toEqual({
      Cliente: 'Mario Rossi',
      'Invitato da': 'Cliente cancellato',
      Iscrizione: `Mario Rossi · ${program}`,
      Premio: 'Caffè omaggio',
      Buono: 'Caffè omaggio · CAFE-7Q2X',
      'Creato da': 'Anna Bianchi',
      Importazione: 'clienti.csv · Clienti',
      Richiesta: 'Cancellazione · Cliente cancellato',
      Movimento: `Cliente cancellato · -20 punti · ${program}`,
      Immagine: 'vetrina.jpg',
    });
    expect(within(dialog).queryByText(/[0-9a-f]{8}-[0-9a-f]{4}-/)).not.toBeInTheDocument();
  });

  it('names a record’s parts in English', async () => {
    const items: AuditListEntry[] = [
      { id: 21, at: '2026-11-27T10:15:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'ledger.earn', entityType: 'ledger_entry', entityId: '5', before: null, after: null, requestId: 'r', record: { name: null, isErased: true, parts: { program: 'Coffee card', points: 0, stamps: 1 } }, references: {} },
      { id: 22, at: '2026-11-27T10:15:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'create', entityType: 'privacy_request', entityId: 'p', before: null, after: null, requestId: 'r', record: { name: 'Mario Rossi', isErased: false, parts: { kind: 'access' } }, references: {} },
    ];
    server.use(http.get('/api/admin/audit', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 })));
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin' }, language: 'en' });
    expect(await screen.findByText(/Erased customer · \+1 stamp · Coffee card/)).toBeInTheDocument();
    expect(screen.getByText(/Access · Mario Rossi/)).toBeInTheDocument();
  });

  it('says what a card link action did, not a verb on the membership it belongs to', async () => {
    const items: AuditListEntry[] = [
      { id: 31, at: '2026-11-27T10:15:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'card_link.create', entityType: 'membership', entityId: 'm', before: null, after: { version: 1 }, requestId: 'r', record: { name: 'Mario Rossi', isErased: false, parts: { program: 'Circuito Centro Storico' } }, references: {} },
    ];
    server.use(http.get('/api/admin/audit', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 })));
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin' } });
    // "Creata" beside "iscrizione" read as an enrolment, when staff only opened the customer's page.
    expect(await screen.findByText('Creato il link della tessera')).toBeInTheDocument();
    expect(screen.queryByText('Creata')).not.toBeInTheDocument();
  });

  it('says the same in English', async () => {
    const user = userEvent.setup();
    const items: AuditListEntry[] = [
      { id: 7, at: '2026-11-27T10:15:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'update', entityType: 'merchant', entityId: 'm-1', before: { status: 'active', pec: null, updatedAt: '2026-11-20T08:00:00.000Z' }, after: { status: 'suspended', pec: 'bar@pec.it', updatedAt: '2026-11-27T10:15:00.000Z' }, requestId: 'r', record: null, references: {} },
    ];
    server.use(http.get('/api/admin/audit', () => HttpResponse.json({ items, total: 1, page: 1, pageSize: 25 })));
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin', timeZone: 'Europe/Rome' }, language: 'en' });
    await user.click(await screen.findByRole('button', { name: 'Before/after of entry 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Entry details' });
    expect(within(dialog).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['PEC', '—', 'bar@pec.it'],
      ['Status', 'Active', 'Suspended'],
      ['Updated', '11/20/2026,\u00a009:00\u00a0AM', '11/27/2026,\u00a011:15\u00a0AM'],
    ]);
  });

  it('filters by entity from a choice of kinds in words, sending the stored name the API takes', async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    server.use(
      http.get('/api/admin/audit', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('entity') ?? '');
        return HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 });
      }),
    );
    renderWithProviders(<AuditPage />, { route: '/audit', user: { role: 'admin' } });
    const filter = await screen.findByLabelText('Entità', { selector: 'input' });
    await user.click(filter);
    // Typed in the operator's word, not the stored name.
    await user.clear(filter);
    await user.type(filter, 'eserc');
    await user.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'Esercente', hidden: true }));
    await vi.waitFor(() => expect(asked.at(-1)).toBe('merchant'));
  });

  it('compares only the fields that changed', () => {
    expect(changedFields({ a: 1, b: [1] }, { a: 1, b: [2], c: null, d: 0 })).toEqual([
      { field: 'b', before: [1], after: [2] },
      // c: absent, then empty: "—" both sides, no change to show.
      { field: 'd', before: undefined, after: 0 },
    ]);
  });
});
