import type { Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { closeToast } from './support/toasts.ts';

// Six engineers share two cores while this runs: screens that load data get 30 s, not 10.
const expect = baseExpect.configure({ timeout: 30_000 });

// The demo data (thousands of customers, tens of thousands of ledger entries) makes the first start slower.
test.setTimeout(300_000);

const PROGRAM = 'Circuito Centro Storico';

/** Picks an option of a Mantine select by typing part of it. */
async function choose(page: Page, field: ReturnType<Page['getByLabel']>, text: string, option: string | RegExp): Promise<void> {
  await field.click();
  if (text) await field.fill(text);
  // In the open dropdown (a list's filters are native selects with options of the same names).
  await page.getByRole('listbox').getByRole('option', { name: option }).first().click();
}

/**
 * The customers' app sends a review for the customer: the same API call the integration API makes
 * on the app's behalf, sent here with the signed-in admin's session (real HTTP, real server).
 */
async function sendReviewProof(page: Page, customerId: string): Promise<void> {
  const status = await page.evaluate(
    async ({ key, customerId, program }) => {
      const session = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { authToken?: string };
      const csrf = document.cookie.split('; ').find((cookie) => /^(__Host-)?XSRF-TOKEN=/.test(cookie))?.split('=')[1] ?? '';
      const headers = { 'content-type': 'application/json', 'x-auth-token': session.authToken ?? '', 'x-xsrf-token': decodeURIComponent(csrf) };
      const programs = (await (await fetch(`/api/admin/programs?q=${encodeURIComponent(program)}`, { headers })).json()) as { items: { id: string }[] };
      const response = await fetch('/api/admin/social-proofs', {
        method: 'POST',
        headers,
        body: JSON.stringify({ customerId, programId: programs.items[0]!.id, kind: 'review', url: 'https://maps.google.com/review/e2e' }),
      });
      return response.status;
    },
    { key: SESSION_STORAGE_KEY, customerId, program: PROGRAM },
  );
  expect(status).toBe(201);
}

test('an admin creates a reward and 20 vouchers, redeems it for a customer, uses the voucher, and approves a proof in bulk', async ({ page }) => {
  const run = `${Date.now()}`.slice(-6);
  const rewardName = `Premio Prova ${run}`;
  const lastName = `Premiato${run}`;

  await signIn(page, ADMIN);
  const nav = page.getByRole('navigation', { name: 'Menu principale' });

  // Premi: a reward of 10 points in the demo circuit.
  await nav.getByRole('link', { name: 'Premi', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Premi', level: 1 })).toBeVisible();
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the rewards list');
  await page.getByRole('link', { name: 'Nuovo premio' }).click();
  const drawer = page.getByRole('dialog', { name: 'Nuovo premio' });
  await expect(async () => {
    await choose(page, drawer.getByLabel(/^Programma/), 'Circuito', PROGRAM);
    await expect(drawer.getByLabel(/^Programma/)).toHaveValue(PROGRAM, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await drawer.getByRole('textbox', { name: /^Nome/ }).fill(rewardName);
  await drawer.getByRole('textbox', { name: /^Costo in punti/ }).fill('10');
  await choose(page, drawer.getByLabel(/^Stato/), '', 'Attivo');
  await expectNoSeriousA11yViolations(page, 'the reward form');
  await drawer.getByRole('button', { name: 'Crea premio' }).click();
  await expect(page.getByRole('heading', { name: rewardName, level: 1 })).toBeVisible();
  const rewardUrl = page.url();

  // 20 codes, all available.
  await page.getByRole('textbox', { name: /^Quanti/ }).fill('20');
  await page.getByRole('button', { name: 'Genera', exact: true }).click();
  await closeToast(page, '20 codici generati', { timeout: 30_000 });
  const vouchers = page.getByRole('table', { name: 'Buoni del premio' });
  await expect(vouchers.getByRole('row').filter({ hasText: 'Disponibile' })).toHaveCount(20);
  await expectNoSeriousA11yViolations(page, 'the reward page');

  // A new customer with 30 points (20,00 € at 1,5 points per euro).
  await nav.getByRole('link', { name: 'Clienti', exact: true }).click();
  await page.getByRole('link', { name: 'Nuovo cliente' }).click();
  const customerDrawer = page.getByRole('dialog', { name: 'Nuovo cliente' });
  await customerDrawer.getByRole('textbox', { name: /^Nome/ }).fill('Anna');
  await customerDrawer.getByRole('textbox', { name: /^Cognome/ }).fill(lastName);
  await customerDrawer.getByRole('button', { name: 'Crea cliente' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Anna ${lastName}`), level: 1 })).toBeVisible({ timeout: 30_000 });
  const customerUrl = page.url();
  const customerId = customerUrl.split('/').pop()!;
  await page.getByRole('button', { name: 'Registra acquisto' }).click();
  const purchase = page.getByRole('dialog', { name: 'Registra acquisto' });
  await expect(async () => {
    await choose(page, purchase.getByLabel(/^Programma/), '', PROGRAM);
    await expect(purchase.getByLabel(/^Programma/)).toHaveValue(PROGRAM, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await purchase.getByRole('textbox', { name: /^Importo/ }).fill('20,00');
  await purchase.getByRole('button', { name: 'Continua' }).click();
  await purchase.getByRole('button', { name: 'Conferma' }).click();
  const membership = page.getByRole('region', { name: PROGRAM });
  await expect(membership.getByTestId('membership-balance')).toHaveText('30');

  // Redeemed from the customer's page: 10 points taken, one of the 20 codes handed out.
  await page.getByRole('button', { name: 'Riscatta un premio' }).click();
  const redeem = page.getByRole('dialog', { name: 'Riscatta un premio' });
  await choose(page, redeem.getByLabel(/^Premio/), rewardName, new RegExp(rewardName));
  await expectNoSeriousA11yViolations(page, 'the redeem dialog');
  await redeem.getByRole('button', { name: 'Riscatta', exact: true }).click();
  const code = (await redeem.getByTestId('voucher-code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z2-9]{10}$/);
  await redeem.getByRole('button', { name: 'Fatto' }).click();
  await expect(membership.getByTestId('membership-balance')).toHaveText('20');

  // At the till: the code is used once.
  await page.goto(rewardUrl);
  await expect(vouchers.getByRole('row').filter({ hasText: code })).toContainText('Assegnato');
  await page.getByRole('textbox', { name: /^Codice/ }).fill(code);
  await choose(page, page.getByRole('combobox', { name: 'Esercente' }), '', /.+/);
  await page.getByRole('button', { name: 'Usa il buono' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `Buono ${code} usato` })).toBeVisible();
  await expect(vouchers.getByRole('row').filter({ hasText: code })).toContainText('Usato');
  await page.getByRole('textbox', { name: /^Codice/ }).fill(code);
  await page.getByRole('button', { name: 'Usa il buono' }).click();
  await expect(page.getByText('Questo buono è già stato usato')).toBeVisible();

  // Approvazioni: the customer's review, approved in bulk, pays the program's review bonus (25).
  await sendReviewProof(page, customerId);
  await nav.getByRole('link', { name: 'Approvazioni' }).click();
  await expect(page.getByRole('heading', { name: 'Approvazioni', level: 1 })).toBeVisible();
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the approvals queue');
  await page.getByRole('searchbox').fill(lastName);
  // The search applies after its debounce, and a new search starts with no row selected: select once
  // the list shows the search's answer, not the rows from before it.
  await expect(page).toHaveURL(new RegExp(`[?&]q=${lastName}`));
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  const queue = page.getByRole('table', { name: 'Azioni social da approvare' });
  await expect(queue.getByRole('row').filter({ hasText: lastName })).toHaveCount(1);
  await queue.getByRole('checkbox', { name: `Seleziona Recensione di Anna ${lastName}` }).check();
  await page.getByRole('button', { name: 'Approva (1)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '1 azione approvata' })).toBeVisible();
  await expect(queue.getByRole('row').filter({ hasText: lastName })).toContainText('Approvata');
  await page.goto(customerUrl);
  await expect(page.getByRole('region', { name: PROGRAM }).getByTestId('membership-balance')).toHaveText('45');
});
