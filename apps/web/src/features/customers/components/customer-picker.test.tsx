import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Modal } from '@mantine/core';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { customer } from '../testing/customer-fixtures.ts';
import { CustomerPicker, type PickedCustomer } from './customer-picker.tsx';

/** The picker in a dialog's form, as the Azioni dialogs have it: `submits` counts what Enter sent. */
function Picked({ submits }: { submits: string[] }) {
  const [value, setValue] = useState<PickedCustomer | null>(null);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submits.push(value?.label ?? 'nessuno');
      }}
    >
      <CustomerPicker label="Cliente" value={value} onChange={setValue} />
      <p>scelto: {value?.label ?? 'nessuno'}</p>
    </form>
  );
}

describe('the customer picker of the Azioni dialogs', { timeout: 30_000 }, () => {
  it('picks the holder of a card scanned into it, whose Enter does not send the form, and only offers choices for anything else', async () => {
    const holder = customer();
    const other = customer({ id: '7a2d3c0f-2e3b-4c4d-9e5f-6a7b8c9d0e1f', firstName: 'Marco', cardNumber: '8012345678911' });
    server.use(
      http.get('/api/admin/customers', ({ request }) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        const items = q.startsWith(holder.cardNumber) ? [holder] : [holder, other];
        return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 10 });
      }),
    );
    const user = userEvent.setup();
    const submits: string[] = [];
    renderWithProviders(<Picked submits={submits} />, { route: '/', user: { role: 'admin' } });
    const field = await screen.findByRole('combobox', { name: 'Cliente' });
    await user.type(field, 'bianchi');
    expect(await screen.findByRole('option', { name: 'Bianchi Marco · 8012345678911' })).toBeInTheDocument();
    expect(screen.getByText('scelto: nessuno')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, `${holder.cardNumber}-K7PXM2QD9W{Enter}`);
    expect(await screen.findByText(`scelto: Bianchi Giulia · ${holder.cardNumber}`)).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveValue(`Bianchi Giulia · ${holder.cardNumber}`));
    // The reader's Enter chose; it did not send the form with no customer in it.
    expect(submits).toEqual([]);
    // Once chosen, Enter sends the form as before.
    await user.type(field, '{Enter}');
    expect(submits).toEqual([`Bianchi Giulia · ${holder.cardNumber}`]);
  });

  it('opens with ArrowDown on the chosen customer, as every Select does, and Enter keeps them', async () => {
    const holder = customer();
    server.use(http.get('/api/admin/customers', () => HttpResponse.json({ items: [holder], total: 1, page: 1, pageSize: 10 })));
    const user = userEvent.setup();
    renderWithProviders(<Picked submits={[]} />, { route: '/', user: { role: 'admin' } });
    const field = await screen.findByRole('combobox', { name: 'Cliente' });
    await user.type(field, 'bianchi');
    await user.click(await screen.findByRole('option', { name: `Bianchi Giulia · ${holder.cardNumber}` }));
    expect(await screen.findByText(`scelto: Bianchi Giulia · ${holder.cardNumber}`)).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveAttribute('aria-expanded', 'false'));
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option', { name: `Bianchi Giulia · ${holder.cardNumber}`, hidden: true })).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{Enter}');
    expect(screen.getByText(`scelto: Bianchi Giulia · ${holder.cardNumber}`)).toBeInTheDocument();
  });

  it('lets the first Esc close the dialog it opens in, while it has nothing to show', async () => {
    const closes: string[] = [];
    function InDialog() {
      const [value, setValue] = useState<PickedCustomer | null>(null);
      return (
        <Modal opened onClose={() => closes.push('closed')} title="Registra acquisto">
          <CustomerPicker label="Cliente" value={value} onChange={setValue} autoFocus />
        </Modal>
      );
    }
    const user = userEvent.setup();
    renderWithProviders(<InDialog />, { route: '/', user: { role: 'admin' } });
    // The dialog gives the picker the focus, as Azioni's "Registra acquisto" does.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Cliente' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(closes).toEqual(['closed']);
  });
});
