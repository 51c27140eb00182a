import { Button, TextInput } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../../lib/api-client.ts';
import { VERSION_CONFLICT_CODES } from '../../lib/version-conflict.ts';
import { server } from '../../testing/msw-server.ts';
import { renderWithProviders } from '../../testing/test-utils.tsx';
import { useVersionConflict, VersionConflictNotice } from './version-conflict.tsx';

type Shop = { id: string; city: string; phone: string; version: number };
type Values = { city: string; phone: string };

const toValues = (shop: Shop): Values => ({ city: shop.city, phone: shop.phone });

/** The smallest edit form: a record read once, two fields, a save that sends the version. */
function ShopForm({ shop }: { shop: Shop }) {
  const form = useForm<Values>({ defaultValues: toValues(shop) });
  const conflict = useVersionConflict({ form, record: shop, load: () => apiClient.get<Shop>(`/admin/shops/${shop.id}`), toValues });
  const save = form.handleSubmit(async (values) => {
    try {
      await apiClient.patch(`/admin/shops/${shop.id}`, { ...values, version: conflict.version }, { inlineCodes: VERSION_CONFLICT_CODES });
      form.reset(values);
    } catch (error) {
      if (!conflict.catchConflict(error)) throw error;
    }
  });
  return (
    <form onSubmit={(event) => void save(event)}>
      <VersionConflictNotice conflict={conflict.notice} />
      <TextInput label="Città" {...form.register('city')} />
      <TextInput label="Telefono" {...form.register('phone')} />
      <Button type="submit">Salva</Button>
    </form>
  );
}

/** A shop on the server that someone else already moved to `stored`, at version 2; `sent` collects the saves. */
function shopServer(stored: Shop) {
  const sent: unknown[] = [];
  server.use(
    http.get(`/api/admin/shops/${stored.id}`, () => HttpResponse.json(stored)),
    http.patch(`/api/admin/shops/${stored.id}`, async ({ request }) => {
      const body = (await request.json()) as Shop;
      sent.push(body);
      if (body.version !== stored.version) {
        return HttpResponse.json(
          { error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } },
          { status: 409 },
        );
      }
      return HttpResponse.json({ ...stored, ...body, version: stored.version + 1 });
    }),
  );
  return sent;
}

const opened: Shop = { id: 's1', city: 'Milano', phone: '+39 02 111', version: 1 };

describe('useVersionConflict', { timeout: 30_000 }, () => {
  it('reloads after a 409, keeps the fields the user changed over the fresh record, names the others, and saves with the fresh version', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const sent = shopServer({ ...opened, city: 'Bergamo', version: 2 });
    renderWithProviders(<ShopForm shop={opened} />, { user: { role: 'admin' } });

    await user.clear(screen.getByRole('textbox', { name: 'Telefono' }));
    await user.type(screen.getByRole('textbox', { name: 'Telefono' }), '+39 035 222');
    await user.click(screen.getByRole('button', { name: 'Salva' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Qualcun altro ha modificato questo dato nel frattempo');
    await user.click(within(alert).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    const reloaded = await screen.findByRole('status');
    expect(reloaded).toHaveTextContent('Nel frattempo qualcun altro ha cambiato:');
    expect(reloaded).toHaveTextContent('Città: ora «Bergamo»');
    expect(reloaded).not.toHaveTextContent('Telefono');
    expect(screen.getByRole('textbox', { name: 'Città' })).toHaveValue('Bergamo');
    expect(screen.getByRole('textbox', { name: 'Telefono' })).toHaveValue('+39 035 222');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      { city: 'Milano', phone: '+39 035 222', version: 1 },
      { city: 'Bergamo', phone: '+39 035 222', version: 2 },
    ]);
  });

  it('keeps the user’s value in a field both changed, and says the other person’s value', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const sent = shopServer({ ...opened, city: 'Bergamo', version: 2 });
    renderWithProviders(<ShopForm shop={opened} />, { user: { role: 'admin' } });

    await user.clear(screen.getByRole('textbox', { name: 'Città' }));
    await user.type(screen.getByRole('textbox', { name: 'Città' }), 'Brescia');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await screen.findByRole('status')).toHaveTextContent("Città: cambiato anche da te, resta il tuo valore (l'altra persona aveva scritto «Bergamo»)");
    expect(screen.getByRole('textbox', { name: 'Città' })).toHaveValue('Brescia');

    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ city: 'Brescia', phone: '+39 02 111', version: 2 });
  });

  it('keeps the conflict and its button when the reload fails, saying why', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    shopServer({ ...opened, version: 2 });
    server.use(http.get(`/api/admin/shops/${opened.id}`, () => HttpResponse.error()));
    renderWithProviders(<ShopForm shop={opened} />, { user: { role: 'admin' } });

    await user.type(screen.getByRole('textbox', { name: 'Città' }), ' centro');
    await user.click(screen.getByRole('button', { name: 'Salva' }));
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    // The drawer's own notice, not the toast the failed read may raise as well (once the toasts' code is loaded).
    const notice = () => screen.getByText('Modifica in conflitto').closest<HTMLElement>('[role="alert"]')!;
    await waitFor(() => expect(notice()).toHaveTextContent(/connessione|rete|server/i));
    expect(within(notice()).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' })).toBeEnabled();
    expect(screen.getByRole('textbox', { name: 'Città' })).toHaveValue('Milano centro');
  });
});
