import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { CUSTOMER_ID, MERCHANT_ID, membership, program } from '../testing/ledger-fixtures.ts';
import { LedgerEntryDialog } from './ledger-entry-dialog.tsx';

const admin = { role: 'admin' as const };
const customer = { id: CUSTOMER_ID, label: 'Giulia Bianchi · 8012345678903' };
const OTHER_MERCHANT = '7a1e0c3d-2b4f-4e6a-8c9d-0e1f2a3b4c5d';
const centro = program({ id: '22222222-2222-4222-8222-222222222222', name: 'Circuito Centro Storico', merchantIds: [OTHER_MERCHANT] });
const merchantOptions = [
  { value: MERCHANT_ID, label: 'Bar Centrale' },
  { value: OTHER_MERCHANT, label: 'Forno Rossi' },
];

const TITLES = { purchase: 'Registra acquisto', redeem: 'Riscatta punti', adjust: 'Rettifica punti' } as const;
const unavailable = () => HttpResponse.json({ error: { code: 'unavailable', message: 'down', requestId: 'r' } }, { status: 503 });
const refusedField = (field: string, message: string) => () =>
  HttpResponse.json({ error: { code: 'validation', message, requestId: 'r', fields: [{ field, message }] } }, { status: 400 });

/**
 * Opens the dialog of `kind` on the preset customer, a member of `programs` with `balance` points; the
 * ledger's POST is answered by `answer` and each body it gets is kept in `bodies`.
 */
async function openDialog({
  kind = 'purchase',
  programs = [program(), centro],
  balance,
  answer = unavailable,
}: { kind?: keyof typeof TITLES; programs?: ReturnType<typeof program>[]; balance?: number; answer?: () => Response } = {}) {
  document.cookie = 'XSRF-TOKEN=t; path=/';
  const user = userEvent.setup();
  const bodies: unknown[] = [];
  server.use(
    http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership(balance === undefined ? {} : { balance })] })),
    http.post('/api/admin/ledger', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  renderWithProviders(
    <LedgerEntryDialog kind={kind} onClose={() => undefined} customer={customer} renderCustomerPicker={() => null} programs={programs} merchantOptions={merchantOptions} />,
    { route: '/', user: admin },
  );
  const dialog = await screen.findByRole('dialog', { name: TITLES[kind] });
  return { user, dialog, bodies };
}

async function pick(dialog: HTMLElement, label: RegExp, option: string) {
  const user = userEvent.setup();
  await user.click(within(dialog).getByLabelText(label, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

// Dialogs with several steps take seconds on a loaded machine: generous time per test, no speed asserted.
describe('the merchant of a purchase', { timeout: 30_000 }, () => {
  it('is cleared when the chosen program does not have it in its circuit, so it is never sent unseen', async () => {
    const { user, dialog, bodies } = await openDialog();
    await pick(dialog, /^Esercente/, 'Bar Centrale');
    expect(within(dialog).getByLabelText(/^Esercente/, { selector: 'input' })).toHaveValue('Bar Centrale');
    await pick(dialog, /^Programma/, 'Circuito Centro Storico');
    expect(within(dialog).getByLabelText(/^Esercente/, { selector: 'input' })).toHaveValue('');
    await user.type(within(dialog).getByRole('textbox', { name: /Importo/ }), '12,50');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Conferma' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ customerId: CUSTOMER_ID, programId: centro.id, kind: 'purchase', amountCents: 1250 });
  });

  it("shows the API's refusal of the merchant on the Esercente field, back on the form", async () => {
    const { user, dialog } = await openDialog({ answer: refusedField('merchantId', 'Esercente non è valido') });
    await pick(dialog, /^Programma/, 'Circuito Bergamo');
    await pick(dialog, /^Esercente/, 'Bar Centrale');
    await user.type(within(dialog).getByRole('textbox', { name: /Importo/ }), '12,50');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Conferma' }));
    const merchant = await within(dialog).findByLabelText(/^Esercente/, { selector: 'input' });
    await waitFor(() => expect(merchant).toHaveAccessibleDescription('Esercente non è valido'));
    expect(merchant).toHaveAttribute('aria-invalid', 'true');
  });

  it('says a refusal of a field the dialog does not show (the preset customer) in the dialog, not nothing', async () => {
    const { user, dialog } = await openDialog({ answer: refusedField('customerId', 'Cliente non è valido') });
    await pick(dialog, /^Programma/, 'Circuito Bergamo');
    await user.type(within(dialog).getByRole('textbox', { name: /Importo/ }), '12,50');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Conferma' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Cliente non è valido');
    expect(within(dialog).getByRole('button', { name: 'Conferma' })).toBeInTheDocument();
  });
});

describe('the summary step, from the keyboard', { timeout: 30_000 }, () => {
  for (const [kind, label, typed, sent] of [
    ['purchase', /Importo/, '12,50', { amountCents: 1250 }],
    ['redeem', /^Punti/, '100', { points: 100 }],
    ['adjust', /^Punti/, '-10', { points: -10 }],
  ] as const) {
    it(`puts the focus on "Conferma", so a second Enter confirms (${kind}); "Indietro" puts it back on the form`, async () => {
      const { user, dialog, bodies } = await openDialog({ kind, programs: [program()], balance: 500 });
      const field = within(dialog).getByRole('textbox', { name: label });
      await waitFor(() => expect(field).toHaveFocus());
      await user.keyboard(typed);
      if (kind === 'adjust') await user.type(within(dialog).getByRole('textbox', { name: /^Motivo/ }), 'Errore di cassa');
      await user.click(field);
      await user.keyboard('{Enter}');
      const confirm = await within(dialog).findByRole('button', { name: 'Conferma' });
      await waitFor(() => expect(confirm).toHaveFocus());
      // Back to the form: the focus is on its first field again, not lost on the page.
      await user.click(within(dialog).getByRole('button', { name: 'Indietro' }));
      await waitFor(() => expect(within(dialog).getByRole('textbox', { name: label })).toHaveFocus());
      await user.keyboard('{Enter}');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Conferma' })).toHaveFocus());
      expect(bodies).toEqual([]);
      await user.keyboard('{Enter}');
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ kind, ...sent });
    });
  }
});

describe('Programma, from the keyboard', { timeout: 30_000 }, () => {
  it('opens with ArrowDown on the first program, or on the chosen one, and Enter picks it', async () => {
    const { user, dialog } = await openDialog();
    const field = within(dialog).getByRole('combobox', { name: /^Programma/ });
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options[0]).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{Enter}');
    expect(field).toHaveValue(program().name);
    // Opened again, the chosen program is the one highlighted; ArrowDown moves on from it.
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option', { name: program().name, hidden: true })).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(field).toHaveValue('Circuito Centro Storico');
    expect(within(dialog).queryByText('Programma è obbligatorio')).toBeNull();
  });
});
