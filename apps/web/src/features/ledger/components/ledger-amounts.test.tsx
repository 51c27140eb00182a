import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { CUSTOMER_ID, MERCHANT_ID, entry, membership, program } from '../testing/ledger-fixtures.ts';
import { LedgerEntryDialog } from './ledger-entry-dialog.tsx';

const customer = { id: CUSTOMER_ID, label: 'Giulia Bianchi · 8012345678903' };

function renderPurchase(language: 'it' | 'en' = 'it') {
  const bodies: unknown[] = [];
  server.use(
    http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership()] })),
    http.post('/api/admin/ledger', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ entry: entry({ points: 1 }), membership: membership() }, { status: 201 });
    }),
  );
  renderWithProviders(
    <LedgerEntryDialog
      kind="purchase"
      onClose={() => undefined}
      customer={customer}
      renderCustomerPicker={() => null}
      programs={[program()]}
      merchantOptions={[{ value: MERCHANT_ID, label: 'Bar Centrale' }]}
    />,
    { route: '/', user: { role: 'admin' }, language },
  );
  return bodies;
}

describe('the amount of a purchase, typed as people type it at a till', { timeout: 30_000 }, () => {
  // Either mark starts the decimals, in either language (an Italian keypad's decimal key types "."), and
  // no thousands mark is read while typing: "12.50" became "1.250" and 1.250,00 € in Italian.
  for (const [language, typed, cents, shown] of [
    ['it', '12.50', 1250, '12,50 €'],
    ['it', '12,50', 1250, '12,50 €'],
    ['it', '12,5', 1250, '12,50 €'],
    ['it', '12.5', 1250, '12,50 €'],
    ['it', '1234', 123_400, '1.234,00 €'],
    ['en', '12,50', 1250, '€12.50'],
    ['en', '12.50', 1250, '€12.50'],
    ['en', '1234.5', 123_450, '€1,234.50'],
  ] as const) {
    it(`reads "${typed}" as ${shown} (${language})`, async () => {
      document.cookie = 'XSRF-TOKEN=t; path=/';
      const user = userEvent.setup();
      const bodies = renderPurchase(language);
      const [title, next, confirm] = language === 'it' ? ['Registra acquisto', 'Continua', 'Conferma'] : ['Register purchase', 'Continue', 'Confirm'];
      const dialog = await screen.findByRole('dialog', { name: title });
      const field = within(dialog).getByRole('textbox', { name: /Importo|Amount/ });
      await user.type(field, typed);
      // The field shows what was typed, with the language's decimal mark and no grouping.
      expect(field).toHaveValue(language === 'it' ? typed.replace('.', ',') : typed.replace(',', '.'));
      await user.click(within(dialog).getByRole('button', { name: next }));
      expect(await within(dialog).findByText(shown)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: confirm }));
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ kind: 'purchase', amountCents: cents });
    });
  }

  // A figure copied from elsewhere may carry thousands marks: the last mark is the decimals.
  for (const [language, pasted, shown] of [
    ['it', '1.234,56', '1.234,56 €'],
    ['en', '1,234.56', '€1,234.56'],
  ] as const) {
    it(`reads a pasted "${pasted}" as ${shown} (${language})`, async () => {
      document.cookie = 'XSRF-TOKEN=t; path=/';
      const user = userEvent.setup();
      const bodies = renderPurchase(language);
      const [title, next, confirm] = language === 'it' ? ['Registra acquisto', 'Continua', 'Conferma'] : ['Register purchase', 'Continue', 'Confirm'];
      const dialog = await screen.findByRole('dialog', { name: title });
      await user.click(within(dialog).getByRole('textbox', { name: /Importo|Amount/ }));
      await user.paste(pasted);
      await user.click(within(dialog).getByRole('button', { name: next }));
      expect(await within(dialog).findByText(shown)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: confirm }));
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ kind: 'purchase', amountCents: 123_456 });
    });
  }

  // Ending in a zero, Mantine hands the amount over as its own text ("24.50", a point for the decimals)
  // until the field is left; Enter moves on without leaving it. Read as Italian text, that was 2.450,00 €.
  for (const [typed, cents, shown] of [
    ['24,50', 2450, '24,50 €'],
    ['24.50', 2450, '24,50 €'],
    ['1234,10', 123_410, '1.234,10 €'],
  ] as const) {
    it(`reads "${typed}" as ${shown} when Enter moves on from the field`, async () => {
      document.cookie = 'XSRF-TOKEN=t; path=/';
      const user = userEvent.setup();
      const bodies = renderPurchase();
      const dialog = await screen.findByRole('dialog', { name: 'Registra acquisto' });
      await user.type(within(dialog).getByRole('textbox', { name: /Importo/ }), `${typed}{Enter}`);
      expect(await within(dialog).findByText(shown)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Conferma' }));
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ kind: 'purchase', amountCents: cents });
    });
  }

  for (const typed of ['-5', '0', '0,00']) {
    it(`refuses "${typed}" with a message on the field, sending nothing`, async () => {
      document.cookie = 'XSRF-TOKEN=t; path=/';
      const user = userEvent.setup();
      const bodies = renderPurchase();
      const dialog = await screen.findByRole('dialog', { name: 'Registra acquisto' });
      const field = within(dialog).getByRole('textbox', { name: /Importo/ });
      await user.type(field, typed);
      await user.tab();
      await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
      expect(await within(dialog).findByText('Importo deve essere maggiore di zero')).toBeInTheDocument();
      // The minus sign is not quietly dropped: the operator sees what was typed.
      if (typed === '-5') expect(field).toHaveValue('-5');
      expect(within(dialog).queryByRole('button', { name: 'Conferma' })).toBeNull();
      expect(bodies).toEqual([]);
    });
  }
});

describe('a redemption beyond the balance', { timeout: 30_000 }, () => {
  it('is refused on the field as it is typed, before any confirm step', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    server.use(
      http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership({ balance: 1200 })] })),
      http.post('/api/admin/ledger', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ entry: entry(), membership: membership() }, { status: 201 });
      }),
    );
    renderWithProviders(
      <LedgerEntryDialog kind="redeem" onClose={() => undefined} customer={customer} renderCustomerPicker={() => null} programs={[program()]} merchantOptions={[]} />,
      { route: '/', user: { role: 'admin' } },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Riscatta punti' });
    const points = within(dialog).getByRole('textbox', { name: /^Punti/ });
    expect(await within(dialog).findByText('Disponibili: 1.200 punti')).toBeInTheDocument();
    await user.type(points, '5000');
    expect(await within(dialog).findByText('Il saldo è di 1.200 punti: non se ne possono togliere 5.000')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    expect(within(dialog).queryByRole('button', { name: 'Conferma' })).toBeNull();
    // A 0 stays a 0 and is refused by name (Mantine's clamp on leaving the field made it a 1, unsaid).
    await user.clear(points);
    await user.type(points, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    expect(points).toHaveValue('0');
    expect(await within(dialog).findByText('Punti non sono validi')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Conferma' })).toBeNull();
    await user.clear(points);
    await user.type(points, '200');
    await user.click(within(dialog).getByRole('button', { name: 'Continua' }));
    expect(await within(dialog).findByRole('button', { name: 'Conferma' })).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });
});

describe('a third decimal in the amount', { timeout: 30_000 }, () => {
  for (const language of ['it', 'en'] as const) {
    it(`stays as pasted and is refused by name (${language}), never cut to cents`, async () => {
      document.cookie = 'XSRF-TOKEN=t; path=/';
      const user = userEvent.setup();
      const bodies = renderPurchase(language);
      const [title, pasted, text, next] =
        language === 'it' ? ['Registra acquisto', '12,345', 'Importo: al massimo due decimali', 'Continua'] : ['Register purchase', '12.345', 'Amount: at most two decimals', 'Continue'];
      const dialog = await screen.findByRole('dialog', { name: title });
      const field = within(dialog).getByRole('textbox', { name: /Importo|Amount/ });
      await user.click(field);
      await user.paste(pasted);
      // What the operator pasted is what the field shows, and the field says why it is refused at once.
      expect(field).toHaveValue(pasted);
      expect(await within(dialog).findByText(text)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: next }));
      expect(within(dialog).getByText(text)).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: /Conferma|Confirm/ })).toBeNull();
      expect(bodies).toEqual([]);

      // Put right, it goes through as typed.
      await user.clear(field);
      await user.type(field, language === 'it' ? '12,34' : '12.34');
      await user.click(within(dialog).getByRole('button', { name: next }));
      await user.click(await within(dialog).findByRole('button', { name: /Conferma|Confirm/ }));
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ amountCents: 1234 });
    });
  }
});

describe('a negative adjustment beyond the balance', { timeout: 30_000 }, () => {
  for (const language of ['it', 'en'] as const) {
    it(`shows the balance and is refused on the field as it is typed (${language})`, async () => {
      document.cookie = 'XSRF-TOKEN=t; path=/';
      const user = userEvent.setup();
      const bodies: unknown[] = [];
      server.use(
        http.get(`/api/admin/customers/${CUSTOMER_ID}/memberships`, () => HttpResponse.json({ items: [membership({ balance: 852 })] })),
        http.post('/api/admin/ledger', async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json({ entry: entry(), membership: membership() }, { status: 201 });
        }),
      );
      renderWithProviders(
        <LedgerEntryDialog kind="adjust" onClose={() => undefined} customer={customer} renderCustomerPicker={() => null} programs={[program()]} merchantOptions={[]} />,
        { route: '/', user: { role: 'admin' }, language },
      );
      const it = language === 'it';
      const dialog = await screen.findByRole('dialog', { name: it ? 'Rettifica punti' : 'Adjust points' });
      const points = within(dialog).getByRole('textbox', { name: it ? /^Punti/ : /^Points/ });
      expect(await within(dialog).findByText(it ? 'Saldo attuale: 852 punti' : 'Current balance: 852 points')).toBeInTheDocument();
      await user.type(points, '-5000');
      const warning = it ? 'Il saldo è di 852 punti: non se ne possono togliere 5.000' : 'The balance is 852 points: 5,000 cannot be taken';
      expect(await within(dialog).findByText(warning)).toBeInTheDocument();
      await user.type(within(dialog).getByRole('textbox', { name: it ? /Motivo/ : /Reason/ }), it ? 'Errore di cassa' : 'Till mistake');
      await user.click(within(dialog).getByRole('button', { name: it ? 'Continua' : 'Continue' }));
      expect(within(dialog).getByText(warning)).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: it ? 'Conferma' : 'Confirm' })).toBeNull();

      // Taking the whole balance, or adding, is allowed.
      await user.clear(points);
      await user.type(points, '-852');
      await user.click(within(dialog).getByRole('button', { name: it ? 'Continua' : 'Continue' }));
      expect(await within(dialog).findByRole('button', { name: it ? 'Conferma' : 'Confirm' })).toBeInTheDocument();
      expect(bodies).toEqual([]);
    });
  }
});
