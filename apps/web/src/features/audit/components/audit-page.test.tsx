import type { AuditEntry } from '@sf/contract/audit';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { changedFields } from './audit-change.tsx';
import { AuditPage } from './audit-page.tsx';

const entries: AuditEntry[] = [
  { id: 2, at: '2026-11-21T15:04:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'merchant.update', entityType: 'merchant', entityId: 'm-1', before: { city: 'Bologna', phone: '051' }, after: { city: 'Modena', phone: '051' }, requestId: 'r' },
  { id: 1, at: '2026-11-21T14:00:00.000Z', actorId: 'u1', actorEmail: 'admin@demo.test', action: 'read', entityType: 'customer', entityId: 'c-1', before: null, after: null, requestId: 'r' },
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
    expect(rows[1]).toHaveTextContent('city"Bologna""Modena"');
    await user.keyboard('{Escape}');
    await user.click(screen.getByText('Letture di dati personali'));
    await vi.waitFor(() => expect(asked.at(-1)).toBe('read'));
    expect(await screen.findByText('Lettura di dati personali')).toBeInTheDocument();
    expect(screen.queryByText('merchant.update')).not.toBeInTheDocument();
  });

  it('compares only the fields that changed', () => {
    expect(changedFields({ a: 1, b: [1] }, { a: 1, b: [2], c: null })).toEqual([
      { field: 'b', before: [1], after: [2] },
      { field: 'c', before: undefined, after: null },
    ]);
  });
});
