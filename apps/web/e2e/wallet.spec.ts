import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { REWARD_BOUNDS } from '@sf/contract/rewards';
// The journey renders the server's own card page (a pure function) in a real browser; it is never bundled.
// eslint-disable-next-line no-restricted-imports
import { renderCardPage } from '../../api/src/modules/wallet/card-page.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';

// The demo data (thousands of customers and entries) makes the first start slower.
test.setTimeout(240_000);

test('staff open a customer, copy the card link, and the customer opens it signed out and sees the balance', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, ADMIN);

  // A demo customer with a points membership and a balance.
  const member = await page.evaluate(async (key) => {
    const token = (JSON.parse(localStorage.getItem(key)!) as { authToken: string }).authToken;
    const headers = { 'X-Auth-Token': token };
    const customers = (await (await fetch('/api/admin/customers?status=active&pageSize=50', { headers })).json()) as { items: { id: string }[] };
    for (const customer of customers.items) {
      const memberships = (await (await fetch(`/api/admin/customers/${customer.id}/memberships`, { headers })).json()) as {
        items: { programName: string; programType: string; balance: number }[];
      };
      const points = memberships.items.find((item) => item.programType === 'points' && item.balance > 0);
      if (points && memberships.items.length === 1) return { id: customer.id, programName: points.programName, balance: points.balance };
    }
    throw new Error('no demo customer with one points membership');
  }, SESSION_STORAGE_KEY);

  await page.goto(`/customers/${member.id}`);
  const panel = page.getByRole('region', { name: `Tessera nel telefono: ${member.programName}` });
  const field = panel.getByRole('textbox', { name: `Link della tessera per ${member.programName}` });
  await expect(field).toHaveValue(/\/c\/[A-Za-z0-9_-]{43}$/, { timeout: 30_000 });
  // Without wallet settings the pass buttons are there, disabled, and the link still works.
  await expect(panel.getByRole('button', { name: 'Apple Wallet (.pkpass)' })).toBeDisabled();
  await expect(panel.getByText('I wallet non sono configurati: il link della tessera funziona comunque.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('customer-wallet-1366.png'), fullPage: false });
  await panel.screenshot({ path: test.info().outputPath('wallet-panel-1366.png') });

  await panel.getByRole('button', { name: 'Copia link' }).click();
  await expect(panel.getByRole('button', { name: 'Link copiato' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await field.inputValue());

  // The customer's phone: another browser, nobody signed in.
  const phone = await browser.newContext({ locale: 'it-IT', viewport: { width: 390, height: 844 } });
  try {
    const card = await phone.newPage();
    const response = await card.goto(copied);
    expect(response?.status()).toBe(200);
    await expect(card.getByRole('heading', { name: member.programName })).toBeVisible();
    await expect(card.locator('.balance')).toHaveText(new Intl.NumberFormat('it-IT').format(member.balance));
    await expect(card.getByText('Mostra questo codice alla cassa')).toBeVisible();
    expect(await card.evaluate(() => document.scripts.length)).toBe(0);
    await card.screenshot({ path: test.info().outputPath('card-page-phone.png'), fullPage: true });
  } finally {
    await phone.close();
  }
});

test('the card page holds a 40-character voucher code and long names within a 390 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The longest a voucher code may be (imported codes), and names with no room to spare: they break inside
  // the phone's width instead of pushing the page past it. Rendered as the server renders it.
  await page.setContent(
    await renderCardPage({
      language: 'it',
      programName: 'Circuito Fedeltà Commercianti del Centro Storico di Bergamo Alta',
      programType: 'points',
      balance: 1_234_567,
      stamps: 0,
      stampsRequired: null,
      tier: 'Platino Superiore Illimitato',
      firstName: 'Massimilianoalessandrogiovanni',
      cardNumber: '2790000001721',
      barcodeMessage: '2790000001721-K7PXM2QD9W',
      backgroundColor: null,
      foregroundColor: null,
      logoUrl: null,
      terms: null,
      expiring: [],
      vouchers: [{ code: 'X'.repeat(REWARD_BOUNDS.codeMax), name: 'Buono sconto 5 €', validUntil: '2027-05-27' }],
      appleUrl: null,
      googleUrl: null,
    }),
  );
  await expect(page.getByText('X'.repeat(REWARD_BOUNDS.codeMax))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the page scrolls sideways by').toBe(0);
  const tier = (await page.getByText('Platino Superiore Illimitato').boundingBox())!;
  const card = (await page.locator('.card').boundingBox())!;
  expect(tier.x + tier.width, 'the tier inside the card').toBeLessThanOrEqual(card.x + card.width);
});
