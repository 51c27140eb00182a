import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';

// The demo data (thousands of customers, tens of thousands of ledger entries) makes the first start slower.
test.setTimeout(240_000);

test('the dashboard follows its period and program filters in the URL, and a figure opens its list filtered', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/dashboard');
  const figures = page.getByTestId('period-figures');
  await expect(figures).toBeVisible({ timeout: 30_000 });
  const initialPeriod = await figures.getAttribute('data-period');
  await expect(page.getByTestId('figure-pointsIssued-value')).toHaveText(/^[\d.]+$/);
  // The chart arrives lazily with its own module.
  await expect(page.locator('.recharts-wrapper').first()).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'the dashboard');

  // A preset: the URL says it, the API answers for it, the figures show it.
  await page.getByText('7 giorni', { exact: true }).click();
  await expect(page).toHaveURL(/[?&]period=7d/);
  await expect(figures).not.toHaveAttribute('data-period', initialPeriod ?? '');
  const [from, to] = ((await figures.getAttribute('data-period')) ?? '').split('/');
  expect((Date.parse(to!) - Date.parse(from!)) / 86_400_000).toBe(6);

  // A program: the URL keeps the period and adds the program; the figures are asked again.
  const answer = page.waitForResponse((response) => response.url().includes('/api/admin/dashboard') && response.url().includes('programId='));
  await page.getByRole('combobox', { name: 'Programma' }).click();
  const option = page.getByRole('option').nth(1);
  await option.click();
  const body = await (await answer).json();
  await expect(page).toHaveURL(/[?&]programId=[0-9a-f-]{36}/);
  await expect(page).toHaveURL(/[?&]period=7d/);
  await expect(page.getByTestId('figure-pointsIssued-value')).toHaveText(new Intl.NumberFormat('it-IT', { useGrouping: 'always' }).format(body.period.pointsIssued));
  const programId = new URL(page.url()).searchParams.get('programId');

  // Reloading keeps every filter (they live in the URL).
  await page.reload();
  await expect(page.getByTestId('period-figures')).toHaveAttribute('data-period', `${from}/${to}`);

  // "Points issued" opens the ledger filtered the same way, and the list adds up to the figure.
  const issued = await page.getByTestId('figure-pointsIssued-value').textContent();
  await page.getByTestId('figure-pointsIssued').getByRole('link').click();
  await expect(page).toHaveURL(/\/ledger\?/);
  const ledger = new URL(page.url()).searchParams;
  expect(ledger.get('kind')).toBe('earn');
  expect(ledger.get('programId')).toBe(programId);
  expect(ledger.get('from')).toBeTruthy();
  expect(ledger.get('to')).toBeTruthy();
  await expect(page.getByRole('heading', { name: 'Movimenti', level: 1 })).toBeVisible();
  await expect(page.getByTestId('ledger-totals')).toContainText(issued === '0' ? 'punti 0' : `punti +${issued}`);
});

test('the audit screen lists changes and reads of personal data, shows a change before/after, and exports', async ({ page }) => {
  await signIn(page, ADMIN);
  // A read of personal data to find: open a customer's page.
  await page.goto('/customers');
  await page.getByRole('table').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}/);
  // The tab names the record, then its screen (WCAG 2.4.2). The address changes before the page does:
  // the customer's own heading is read once their page is there (the list's "Clienti" was, once, in CI).
  await expect(page.getByRole('heading', { name: 'Dati personali' })).toBeVisible();
  const customerName = (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
  await expect(page).toHaveTitle(`${customerName} · Clienti · Social Fidelity`);

  const nav = page.getByRole('navigation', { name: 'Menu principale' });
  await nav.getByRole('link', { name: 'Audit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible();
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the audit list');

  await page.getByText('Letture di dati personali', { exact: true }).click();
  await expect(page).toHaveURL(/[?&]action=read/);
  await expect(page.getByRole('cell', { name: 'Lettura di dati personali' }).first()).toBeVisible();

  // The read names the customer it was about (not their id) and opens their page.
  await expect(page.getByRole('table').getByRole('link', { name: customerName ?? '' }).first()).toHaveAttribute('href', /^\/customers\/[0-9a-f-]{36}$/);

  await page.getByText('Tutto', { exact: true }).click();
  await expect(page).not.toHaveURL(/action=read/);
  // Entità is a choice in the operator's words; it sends the stored name the API takes.
  const entity = page.getByLabel('Entità', { exact: true }).and(page.locator('input'));
  await entity.click();
  await entity.fill('clien');
  await page.getByRole('option', { name: 'Cliente', exact: true }).click();
  await expect(page).toHaveURL(/[?&]entity=customer/);
  await page.getByRole('button', { name: /della voce n\./ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Dettagli della voce' });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'an audit entry');
  await page.keyboard.press('Escape');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Esporta/ }).click();
  expect((await download).suggestedFilename()).toMatch(/audit.*\.csv$/);
});
