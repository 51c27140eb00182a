import type { Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';

// The demo data (thousands of customers, tens of thousands of ledger entries) makes the first start slower.
test.setTimeout(240_000);

/** A GET of the API with the signed-in session's token (to arrange a journey, never to check it). */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(
    async ({ key, url }) => {
      const session = JSON.parse(localStorage.getItem(key) ?? '{}') as { authToken?: string };
      const response = await fetch(url, { headers: { 'X-Auth-Token': session.authToken ?? '' } });
      return (await response.json()) as T;
    },
    { key: SESSION_STORAGE_KEY, url: `/api${path}` },
  );
}

test('an admin imports customers from an Italian Excel file: column mapping, dry run with row errors, progress bar and report', async ({ page }) => {
  const run = `${Date.now()}`.slice(-6);
  const csv =
    '\uFEFF' +
    [
      'Nome;Cognome;E-mail;Data di nascita;Provincia;Consenso servizio;Consenso marketing',
      `Giada;Import${run};giada${run}@example.it;03/05/1991;BO;sì;sì`,
      `Enzo;Import${run};enzo${run}@example.it;31/02/1980;MI;sì;no`,
      `Ilaria;Import${run};;;TO;sì;no`,
      `Bruno;Import${run};bruno${run}@example.it;;XX;sì;no`,
    ].join('\r\n');

  await signIn(page, ADMIN);
  await page.getByRole('button', { name: 'Azioni' }).click();
  await page.getByRole('menuitem', { name: 'Importa clienti' }).click();
  const wizard = page.getByRole('dialog', { name: 'Nuova importazione', exact: true });
  await expect(wizard).toBeVisible();
  await wizard.locator('input[type="file"]').setInputFiles({ name: `clienti-${run}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await expect(wizard.getByText('Separatore riconosciuto: punto e virgola · 7 colonne')).toBeVisible();
  // The mapping step: the header's Italian names are proposed; the surname column is chosen by hand.
  await expect(wizard.getByLabel('Colonna per Nome', { exact: true })).toHaveValue('Nome');
  await expect(wizard.getByLabel('Colonna per Email', { exact: true })).toHaveValue('E-mail');
  await wizard.getByLabel('Colonna per Cognome', { exact: true }).click();
  await page.getByRole('option', { name: '— non importare —' }).click();
  await expect(wizard.getByRole('button', { name: 'Verifica il file' })).toBeDisabled();
  await wizard.getByLabel('Colonna per Cognome', { exact: true }).click();
  await page.getByRole('option', { name: 'Cognome', exact: true }).click();
  await expectNoSeriousA11yViolations(page, 'the import wizard with its column mapping');
  await wizard.getByRole('button', { name: 'Verifica il file' }).click();

  // The dry run: counts and row errors in Italian, nothing imported yet.
  const detail = page.getByRole('dialog', { name: 'Importazione', exact: true });
  await expect(detail.getByText('4 righe')).toBeVisible();
  await expect(detail.getByText('2 valide')).toBeVisible();
  const errors = detail.getByRole('table', { name: /Le righe con errori/ });
  await expect(errors.getByRole('row', { name: /3 Data di nascita Data di nascita non è valida/ })).toBeVisible();
  await expect(errors.getByRole('row', { name: /5 Provincia Provincia non è valida/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the dry run of an import');
  const download = page.waitForEvent('download');
  await detail.getByRole('button', { name: 'Scarica gli errori (CSV)' }).click();
  expect((await download).suggestedFilename()).toMatch(/^errori-importazione-.*\.csv$/);

  // The import: a progress bar, then the report.
  await detail.getByRole('button', { name: 'Importa 2 righe valide' }).click();
  // Attached, not visible: at 0 % (still queued) the bar's section has no width, which Playwright calls hidden.
  await expect(detail.getByRole('progressbar', { name: "Avanzamento dell'importazione" })).toBeAttached();
  await expect(detail.getByText('Importazione completata')).toBeVisible({ timeout: 60_000 });
  await expect(detail.getByText('Importate: 2 · saltate: 2 · righe con errori: 2')).toBeVisible();
  await expect(detail.getByRole('progressbar', { name: "Avanzamento dell'importazione" })).toHaveAttribute('aria-valuenow', '100');
  await detail.getByRole('button', { name: 'Chiudi' }).click();

  // The list of imports shows it; the customers are there.
  await expect(page.getByRole('heading', { name: 'Importazioni', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`clienti-${run}\\.csv`) })).toContainText('Completata');
  await expectNoSeriousA11yViolations(page, 'the imports list');
  await page.goto(`/customers?q=Import${run}`);
  await expect(page.getByRole('link', { name: `Import${run} Giada` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Import${run} Ilaria` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Import${run} Enzo` })).toHaveCount(0);
});

test('an admin handles an erasure request end to end: the customer is anonymised, their balances stay', async ({ page }) => {
  await signIn(page, ADMIN);
  // Arrange: a demo customer with points in a points program (the demo ledger gives most of them some).
  // Not any earning: the newest may be a stamp card's, whose panel shows stamps and no balance (the demo
  // is dated from today, so which it is changes from day to day).
  const programs = await apiGet<{ items: { id: string }[] }>(page, '/admin/programs?type=points&pageSize=100');
  let target: { id: string; cardNumber: string; lastName: string } | null = null;
  search: for (const program of programs.items) {
    const ledger = await apiGet<{ items: { customerId: string }[] }>(page, `/admin/ledger?kind=earn&programId=${program.id}&pageSize=50`);
    for (const { customerId } of ledger.items) {
      const customer = await apiGet<{ id: string; cardNumber: string; lastName: string; status: string }>(page, `/admin/customers/${customerId}`);
      if (customer.status === 'active') {
        target = customer;
        break search;
      }
    }
  }
  expect(target, 'a demo customer with ledger entries').not.toBeNull();
  const customer = target!;

  await page.getByRole('navigation', { name: 'Menu principale' }).getByRole('link', { name: 'Richieste privacy' }).click();
  await expect(page.getByRole('heading', { name: 'Richieste privacy', level: 1 })).toBeVisible();
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  // The demo queue: a request near its deadline stands out.
  await expect(page.getByTitle('Meno di 7 giorni alla scadenza').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the privacy requests queue');

  await page.getByRole('link', { name: 'Nuova richiesta' }).click();
  const form = page.getByRole('dialog', { name: 'Nuova richiesta privacy', exact: true });
  await form.getByLabel(/^Tipo di richiesta/).click();
  // The form's picker, not the list's kind filter (a native select with the same option).
  await page.getByRole('listbox').getByRole('option', { name: 'Cancellazione' }).click();
  // Without a customer, the form says so in the operator's language (not the browser's own bubble).
  await form.getByRole('button', { name: 'Registra la richiesta' }).click();
  await expect(form.getByText('Scegli il cliente')).toBeVisible();
  await form.getByLabel(/^Cliente/).fill(customer.cardNumber);
  await page.getByRole('option', { name: new RegExp(customer.cardNumber) }).click();
  await expectNoSeriousA11yViolations(page, 'the new privacy request form');
  await form.getByRole('button', { name: 'Registra la richiesta' }).click();

  const drawer = page.getByRole('dialog', { name: 'Richiesta privacy', exact: true });
  await expect(drawer.getByText('Cancellazione', { exact: true })).toBeVisible();
  await expect(drawer.getByText('Aperta')).toBeVisible();
  const balances = drawer.getByTestId('membership-balance');
  await expect(balances.first()).toBeVisible();
  // The membership cards are laid out by the drawer's width, not the window's: three columns by the
  // window made each a third of a drawer, a program's name broken word by word.
  const cardWidth = await balances.first().evaluate((element) => element.closest('section')?.getBoundingClientRect().width ?? 0);
  expect(cardWidth).toBeGreaterThan(((await drawer.boundingBox())?.width ?? Infinity) / 3);
  const before = await balances.allTextContents();
  await expectNoSeriousA11yViolations(page, 'a privacy request');

  await drawer.getByRole('button', { name: 'Cancella i dati personali' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancellare i dati personali?', exact: true });
  await confirm.getByRole('button', { name: 'Cancella definitivamente' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Dati personali cancellati.' })).toBeVisible();
  await expect(drawer.getByText('Evasa')).toBeVisible();
  await expect(drawer.getByText('Dati cancellati', { exact: true })).toBeVisible();
  await expect(drawer.getByText(/^Cliente cancellato · \d{13}$/)).toBeVisible();
  // The ledger's figures did not move.
  await expect(balances).toHaveText(before);

  // The customer's page: erased, no personal data, same balances.
  await drawer.getByRole('link', { name: /^Cliente cancellato/ }).click();
  await expect(page.getByText('Cancellato', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(customer.lastName)).toHaveCount(0);
  await expect(page.getByTestId('membership-balance')).toHaveText(before);
});
