import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ApiKey, CreatedApiKey } from '@sf/contract/integration';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { ApiKeysPage } from './api-keys-page.tsx';

const MERCHANT_ID = '0d7f5c2e-8a31-4c1b-9a57-3f2b1e0c9d11';
const merchants = [{ value: MERCHANT_ID, label: 'Bar Centrale' }];
const admin = { role: 'admin' as const, timeZone: 'Europe/Rome' };
const SECRET = 'sfk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

const key: ApiKey = {
  id: 'k1',
  name: 'Cassa bar',
  kind: 'merchant',
  merchantId: null,
  merchantName: 'Bar Centrale',
  scopes: ['purchases:write'],
  prefix: 'sfk_AbCd',
  createdAt: '2026-11-26T10:15:00.000Z',
  createdBy: 'admin@demo.test',
  lastUsedAt: null,
  revokedAt: null,
  status: 'active',
};

function answerList(items: ApiKey[] = [key]) {
  server.use(http.get('/api/admin/api-keys', () => HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 })));
}

/** Answers a creation with the key and its secret; returns the bodies received. */
function answerCreate() {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/admin/api-keys', async ({ request }) => {
      const body = (await request.json()) as Pick<ApiKey, 'name' | 'kind' | 'scopes'>;
      bodies.push(body);
      const created: CreatedApiKey = { key: { ...key, id: 'k2', name: body.name, kind: body.kind, scopes: body.scopes }, secret: SECRET };
      return HttpResponse.json(created, { status: 201 });
    }),
  );
  return bodies;
}

async function openForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Nuova chiave' }));
  return screen.findByRole('dialog', { name: 'Nuova chiave API' });
}

describe('Chiavi API', { timeout: 30_000 }, () => {
  it('shows dates in the app’s one format: four-digit year, the profile’s time zone', async () => {
    answerList();
    renderWithProviders(<ApiKeysPage merchantOptions={[]} />, { route: '/api-keys', user: admin });
    const row = (await screen.findByText('Cassa bar')).closest('tr')!;
    // 10:15 UTC is 11:15 in Rome; the other screens write "26/11/2026, 11:15".
    expect(within(row).getByText('26/11/2026, 11:15')).toBeInTheDocument();
    expect(within(row).getByText('Registrare acquisti')).toBeInTheDocument();
    expect(within(row).getByText('sfk_AbCd…')).toBeInTheDocument();
  });

  it('creates a till’s key for a merchant only once the merchant is chosen, then shows its secret once', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerList([]);
    const bodies = answerCreate();
    renderWithProviders(<ApiKeysPage merchantOptions={merchants} />, { route: '/api-keys', user: admin });
    const form = await openForm(user);
    await user.click(within(form).getByRole('button', { name: 'Crea la chiave' }));
    expect(await within(form).findByText('Nome è obbligatorio')).toBeInTheDocument();
    expect(within(form).getByText('Esercente è obbligatorio')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.type(within(form).getByRole('textbox', { name: /^Nome/ }), 'Cassa 1');
    await user.click(within(form).getByLabelText(/Esercente/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true }));
    await user.click(within(form).getByRole('button', { name: 'Crea la chiave' }));

    const shown = await screen.findByRole('dialog', { name: 'La nuova chiave' });
    expect(bodies).toEqual([{ name: 'Cassa 1', kind: 'merchant', merchantId: MERCHANT_ID, scopes: ['purchases:write', 'cards:read', 'vouchers:use'] }]);
    expect(within(shown).getByText('Copiala ora: non la vedrai più')).toBeInTheDocument();
    expect(within(shown).getByRole('textbox', { name: 'Segreto' })).toHaveValue(SECRET);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nuova chiave API' })).toBeNull());

    await user.click(within(shown).getByRole('button', { name: 'Ho copiato la chiave' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'La nuova chiave' })).toBeNull());
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(screen.queryByText(SECRET)).toBeNull();
  });

  it('offers the app’s key no purchases, the till’s key no sign-ups, and sends it without the merchant chosen before', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerList([]);
    const bodies = answerCreate();
    renderWithProviders(<ApiKeysPage merchantOptions={merchants} />, { route: '/api-keys', user: admin });
    const form = await openForm(user);
    expect(within(form).getByRole('checkbox', { name: 'Registrare acquisti' })).toBeChecked();
    expect(within(form).queryByRole('checkbox', { name: 'Iscrivere clienti (app)' })).toBeNull();
    await user.type(within(form).getByRole('textbox', { name: /^Nome/ }), 'App clienti');
    await user.click(within(form).getByLabelText(/Esercente/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bar Centrale', hidden: true }));
    await user.click(within(form).getByRole('radio', { name: 'App dei clienti' }));
    expect(within(form).queryByRole('checkbox', { name: 'Registrare acquisti' })).toBeNull();
    expect(within(form).queryByLabelText(/Esercente/, { selector: 'input' })).toBeNull();
    await user.click(within(form).getByRole('checkbox', { name: 'Inviare prove social' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Iscrivere clienti (app)' }));
    await user.click(within(form).getByRole('button', { name: 'Crea la chiave' }));
    await screen.findByRole('dialog', { name: 'La nuova chiave' });
    expect(bodies).toEqual([{ name: 'App clienti', kind: 'app', scopes: ['cards:read', 'vouchers:use', 'proofs:write', 'customers:write'] }]);
  });

  it('asks for at least one permission', async () => {
    const user = userEvent.setup();
    answerList([]);
    const bodies = answerCreate();
    renderWithProviders(<ApiKeysPage merchantOptions={merchants} />, { route: '/api-keys', user: admin });
    const form = await openForm(user);
    await user.type(within(form).getByRole('textbox', { name: /^Nome/ }), 'App clienti');
    await user.click(within(form).getByRole('radio', { name: 'App dei clienti' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Leggere le tessere' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Verificare e usare buoni' }));
    await user.click(within(form).getByRole('button', { name: 'Crea la chiave' }));
    expect(await within(form).findByText('Scegli almeno un permesso valido')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('says a name longer than 100 characters is too long, not missing', async () => {
    const user = userEvent.setup();
    answerList([]);
    const bodies = answerCreate();
    renderWithProviders(<ApiKeysPage merchantOptions={merchants} />, { route: '/api-keys', user: admin });
    const form = await openForm(user);
    await user.click(within(form).getByRole('textbox', { name: /^Nome/ }));
    await user.paste('C'.repeat(101));
    await user.click(within(form).getByRole('radio', { name: 'App dei clienti' }));
    await user.click(within(form).getByRole('button', { name: 'Crea la chiave' }));
    expect(await within(form).findByText('La lunghezza massima di Nome è 100')).toBeInTheDocument();
    expect(within(form).queryByText('Nome è obbligatorio')).toBeNull();
    expect(bodies).toEqual([]);
  });

  it('revokes a key only after the confirmation', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answerList();
    const revoked: string[] = [];
    server.use(
      http.delete('/api/admin/api-keys/:id', ({ params }) => {
        revoked.push(String(params['id']));
        return HttpResponse.json({ ...key, status: 'revoked', revokedAt: '2026-11-27T10:00:00.000Z' });
      }),
    );
    renderWithProviders(<ApiKeysPage merchantOptions={merchants} />, { route: '/api-keys', user: admin });
    await user.click(await screen.findByRole('button', { name: 'Revoca la chiave Cassa bar' }));
    let confirm = await screen.findByRole('dialog', { name: 'Revocare la chiave?' });
    expect(within(confirm).getByText(/«Cassa bar» smetterà di funzionare/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revocare la chiave?' })).toBeNull());
    expect(revoked).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Revoca la chiave Cassa bar' }));
    confirm = await screen.findByRole('dialog', { name: 'Revocare la chiave?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoca' }));
    expect(await screen.findByText('Chiave «Cassa bar» revocata')).toBeInTheDocument();
    expect(revoked).toEqual(['k1']);
  });
});
