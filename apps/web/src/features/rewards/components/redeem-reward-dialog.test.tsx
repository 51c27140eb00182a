import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { RedemptionResult } from '@sf/contract/rewards';
import { CUSTOMER_ID, PROGRAM_ID, renderRedeemDialog, reward } from '../testing/reward-fixtures.tsx';

const gelato = reward({ validFrom: null });

const redeemed: RedemptionResult = {
  entry: {
    id: 901,
    membershipId: 'm1',
    customerId: CUSTOMER_ID,
    programId: PROGRAM_ID,
    merchantId: null,
    kind: 'redeem',
    source: 'manual',
    points: -100,
    stamps: 0,
    amountCents: null,
    reason: null,
    reversesId: null,
    createdBy: 'admin@demo.test',
    createdAt: '2026-11-20T09:00:00.000Z',
  } as unknown as RedemptionResult['entry'],
  voucher: { id: 77, code: 'GELA7K2M', validUntil: '2027-06-30' },
};

/** The active rewards, the customer's balance and the redemptions, answered in turn by `answers`. */
const renderDialog = (answers: (() => Response)[]) => renderRedeemDialog({ rewards: [gelato], membership: { programId: PROGRAM_ID, balance: 250, stamps: 0 }, answers });

async function chooseGelato(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('dialog', { name: 'Riscatta un premio' });
  // Opened from her page, the customer is said, not asked, as in the ledger's dialogs.
  expect(within(dialog).getByText('Giulia Bianchi')).toBeInTheDocument();
  await user.click(within(dialog).getByLabelText(/Premio/, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: 'Gelato · Circuito Centro · 100 punti', hidden: true }));
  expect(await within(dialog).findByText('Saldo del cliente: 250 punti')).toBeInTheDocument();
  return dialog;
}

const refusal = (code: string, message: string, status = 422) => () => HttpResponse.json({ error: { code, message, requestId: 'r' } }, { status });

describe('Riscatta un premio', { timeout: 30_000 }, () => {
  it('redeems with an Idempotency-Key and shows the voucher’s code to hand over', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderDialog([() => HttpResponse.json(redeemed, { status: 201 })]);
    const dialog = await chooseGelato(user);
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    expect(await within(dialog).findByTestId('voucher-code')).toHaveTextContent('GELA7K2M');
    expect(within(dialog).getByText('Premio riscattato')).toBeInTheDocument();
    expect(within(dialog).getByText('Valido fino al 30/06/2027')).toBeInTheDocument();
    expect(calls).toEqual([{ key: expect.stringMatching(/^web-redeem-/), body: { customerId: CUSTOMER_ID, rewardId: gelato.id } }]);
    // The dialog says it once: no toast besides.
    expect(screen.queryByText(/Premio riscattato: buono/)).toBeNull();
  });

  it('shows a refusal in the API’s words, and a new attempt is a new request with a new key', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderDialog([refusal('out_of_stock', 'Il premio è esaurito', 409), () => HttpResponse.json(redeemed, { status: 201 })]);
    const dialog = await chooseGelato(user);
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Il premio è esaurito');
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    expect(await within(dialog).findByTestId('voucher-code')).toHaveTextContent('GELA7K2M');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.key).not.toBe(calls[0]!.key);
  });

  it('sends the same key again after an answer lost on the network or behind a 503, so the redemption counts once', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderDialog([() => HttpResponse.error(), refusal('unavailable', 'down', 503), () => HttpResponse.json(redeemed, { status: 201 })]);
    const dialog = await chooseGelato(user);
    for (const tries of [1, 2]) {
      await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
      await waitFor(() => expect(calls).toHaveLength(tries));
      await within(dialog).findByRole('alert');
    }
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    expect(await within(dialog).findByTestId('voucher-code')).toHaveTextContent('GELA7K2M');
    expect(calls.map((call) => call.key)).toEqual([calls[0]!.key, calls[0]!.key, calls[0]!.key]);
  });
});

describe('Riscatta un premio, from the keyboard', { timeout: 30_000 }, () => {
  it('closes at the first Esc, the focus being in Premio', async () => {
    const closes: string[] = [];
    renderRedeemDialog({ rewards: [gelato], membership: { programId: PROGRAM_ID, balance: 250, stamps: 0 }, answers: [], onClose: () => closes.push('closed') });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Riscatta un premio' });
    const field = within(dialog).getByRole('combobox', { name: /Premio/ });
    await waitFor(() => expect(field).toHaveFocus());
    // The list is not opened by the focus alone, so it keeps no Esc for itself.
    expect(field).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Escape}');
    expect(closes).toEqual(['closed']);
  });

  it('picks a reward with ArrowDown and Enter, redeems it with Enter, and leaves the focus on "Fatto"', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderDialog([() => HttpResponse.json(redeemed, { status: 201 })]);
    const dialog = await screen.findByRole('dialog', { name: 'Riscatta un premio' });
    const field = within(dialog).getByRole('combobox', { name: /Premio/ });
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('option', { name: 'Gelato · Circuito Centro · 100 punti', hidden: true })).toHaveAttribute('data-combobox-selected');
    await user.keyboard('{Enter}');
    expect(field).toHaveValue('Gelato · Circuito Centro · 100 punti');
    expect(await within(dialog).findByText('Saldo del cliente: 250 punti')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByTestId('voucher-code')).toHaveTextContent('GELA7K2M');
    expect(calls).toHaveLength(1);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Fatto' })).toHaveFocus());
  });
});

describe('Riscatta un premio, where it happened', { timeout: 30_000 }, () => {
  const NORD_ID = '00000000-0000-4000-8000-000000000003';
  const BAR_ROMA = '00000000-0000-4000-8000-0000000000e1';
  const GELATERIA = '00000000-0000-4000-8000-0000000000e2';
  const FORNO_NORD = '00000000-0000-4000-8000-0000000000e3';
  const caffe = reward({ id: '00000000-0000-4000-8000-0000000000a2', programId: NORD_ID, programName: 'Circuito Nord', name: 'Caffè', cost: 10, validFrom: null });
  const renderWithMerchants = (answers: (() => Response)[]) =>
    renderRedeemDialog({
      rewards: [gelato, caffe],
      membership: { programId: PROGRAM_ID, balance: 250, stamps: 0 },
      answers,
      programs: [
        { id: PROGRAM_ID, merchantIds: [BAR_ROMA, GELATERIA] },
        { id: NORD_ID, merchantIds: [FORNO_NORD] },
      ],
      merchantOptions: [
        { value: BAR_ROMA, label: 'Bar Roma' },
        { value: FORNO_NORD, label: 'Forno Nord' },
        { value: GELATERIA, label: 'Gelateria Sole' },
      ],
    });
  const offered = async (field: HTMLElement, user: ReturnType<typeof userEvent.setup>) => {
    await user.click(field);
    const listbox = await screen.findByRole('listbox', { name: /Esercente/, hidden: true });
    const names = within(listbox)
      .getAllByRole('option', { hidden: true })
      .map((option) => option.textContent);
    await user.keyboard('{Escape}');
    return names;
  };

  it('offers only the merchants of the reward’s program and sends the one chosen', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderWithMerchants([() => HttpResponse.json(redeemed, { status: 201 })]);
    const dialog = await chooseGelato(user);
    const merchant = within(dialog).getByRole('combobox', { name: 'Esercente' });
    expect(await offered(merchant, user)).toEqual(['Bar Roma', 'Gelateria Sole']);
    await user.click(merchant);
    await user.click(await screen.findByRole('option', { name: 'Gelateria Sole', hidden: true }));
    expect(merchant).toHaveValue('Gelateria Sole');
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    expect(await within(dialog).findByTestId('voucher-code')).toHaveTextContent('GELA7K2M');
    expect(calls.map((call) => call.body)).toEqual([{ customerId: CUSTOMER_ID, rewardId: gelato.id, merchantId: GELATERIA }]);
  });

  it('clears the merchant when the reward chosen next is of a program it is not part of, and then sends none', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const calls = renderWithMerchants([() => HttpResponse.json(redeemed, { status: 201 })]);
    const dialog = await chooseGelato(user);
    const merchant = within(dialog).getByRole('combobox', { name: 'Esercente' });
    await user.click(merchant);
    await user.click(await screen.findByRole('option', { name: 'Gelateria Sole', hidden: true }));
    const rewardField = within(dialog).getByLabelText(/Premio/, { selector: 'input' });
    await user.click(rewardField);
    await user.click(await screen.findByRole('option', { name: 'Caffè · Circuito Nord · 10 punti', hidden: true }));
    expect(merchant).toHaveValue('');
    expect(await offered(merchant, user)).toEqual(['Forno Nord']);
    // Back to the first reward: the merchant cleared stays cleared, so the redemption is at the desk.
    await user.click(rewardField);
    await user.click(await screen.findByRole('option', { name: 'Gelato · Circuito Centro · 100 punti', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    expect(await within(dialog).findByTestId('voucher-code')).toHaveTextContent('GELA7K2M');
    expect(calls.map((call) => call.body)).toEqual([{ customerId: CUSTOMER_ID, rewardId: gelato.id }]);
  });

  it('says on Esercente why the API refused the merchant', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const text = 'L’esercente non è attivo';
    renderWithMerchants([
      () => HttpResponse.json({ error: { code: 'validation', message: 'Dati non validi', fields: [{ field: 'merchantId', message: text }], requestId: 'r' } }, { status: 400 }),
    ]);
    const dialog = await chooseGelato(user);
    const merchant = within(dialog).getByRole('combobox', { name: 'Esercente' });
    await user.click(merchant);
    await user.click(await screen.findByRole('option', { name: 'Bar Roma', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Riscatta' }));
    await waitFor(() => expect(merchant).toHaveAccessibleDescription(text));
    expect(merchant).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
