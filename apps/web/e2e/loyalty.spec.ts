import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';
import { closeToast } from './support/toasts.ts';

// The demo data (thousands of customers, tens of thousands of ledger entries) makes the first start slower.
test.setTimeout(240_000);

/** A Partita IVA with a correct check digit (the API refuses any other), unique per run. */
function partitaIva(): string {
  const digits = `${Date.now()}`.slice(-10).split('').map(Number);
  const sum = digits.reduce((total, digit, index) => {
    if (index % 2 === 0) return total + digit;
    const doubled = digit * 2;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${digits.join('')}${(10 - (sum % 10)) % 10}`;
}

/** Picks an option of a Mantine select or multi-select by typing part of it. */
async function choose(page: Page, field: ReturnType<Page['getByLabel']>, text: string, option: string | RegExp): Promise<void> {
  await field.click();
  // A plain select is read-only: only searchable ones take text.
  if (text) await field.fill(text);
  // In the open dropdown (a list's filters are native selects with options of the same names).
  await page.getByRole('listbox').getByRole('option', { name: option }).first().click();
}

test('an admin creates a merchant, a program and a customer, records a purchase, sees the balance, reverses it and exports the customers', async ({ page }) => {
  const run = `${Date.now()}`.slice(-6);
  const merchantName = `Bar Prova ${run} S.r.l.`;
  const signName = `Bar Prova ${run}`;
  const programName = `Punti Prova ${run}`;
  const lastName = `Collaudo${run}`;

  await signIn(page, ADMIN);
  const nav = page.getByRole('navigation', { name: 'Menu principale' });

  // Esercenti: the Italian checks speak first, then the merchant is created.
  await nav.getByRole('link', { name: 'Esercenti', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Esercenti', level: 1 })).toBeVisible();
  // Loaded (with or without demo merchants): the skeleton rows are gone.
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the merchants list');
  await page.getByRole('link', { name: 'Nuovo esercente' }).click();
  const merchantDrawer = page.getByRole('dialog', { name: 'Nuovo esercente' });
  await merchantDrawer.getByRole('textbox', { name: /^Ragione sociale/ }).fill(merchantName);
  await merchantDrawer.getByRole('textbox', { name: /^Insegna/ }).fill(signName);
  await merchantDrawer.getByRole('textbox', { name: /^Partita IVA/ }).fill('01234567890');
  await merchantDrawer.getByRole('button', { name: 'Crea esercente' }).click();
  await expect(merchantDrawer.getByText('Partita IVA non è valida')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the merchant form with errors');
  await merchantDrawer.getByRole('textbox', { name: /^Partita IVA/ }).fill(partitaIva());
  await merchantDrawer.getByRole('textbox', { name: /^Via e numero/ }).fill('Via Roma 1');
  await merchantDrawer.getByRole('textbox', { name: /^Città/ }).fill('Bergamo');
  await choose(page, merchantDrawer.getByLabel(/^Provincia/), 'BG', 'BG');
  await merchantDrawer.getByRole('textbox', { name: /^CAP/ }).fill('24121');
  await merchantDrawer.getByRole('button', { name: 'Crea esercente' }).click();
  await expect(page.getByRole('dialog', { name: 'Modifica esercente' })).toBeVisible();
  await closeToast(page, `Esercente “${merchantName}” creato.`);
  await page.getByRole('dialog', { name: 'Modifica esercente' }).getByRole('button', { name: 'Chiudi' }).click();

  // Programmi: a points program of that merchant, active.
  await nav.getByRole('link', { name: 'Programmi fedeltà' }).click();
  await page.getByRole('link', { name: 'Nuovo programma' }).click();
  const programDrawer = page.getByRole('dialog', { name: 'Nuovo programma' });
  await programDrawer.getByRole('textbox', { name: /^Nome/ }).fill(programName);
  await choose(page, programDrawer.getByLabel(/^Esercenti del circuito/), signName, signName);
  await page.keyboard.press('Escape');
  await choose(page, programDrawer.getByLabel(/^Stato/), '', 'Attivo');
  await programDrawer.getByRole('textbox', { name: /^Punti per euro/ }).fill('2');
  await expectNoSeriousA11yViolations(page, 'the program form');
  await programDrawer.getByRole('button', { name: 'Crea programma' }).click();
  await closeToast(page, `Programma “${programName}” creato.`);
  await page.getByRole('dialog', { name: 'Modifica programma' }).getByRole('button', { name: 'Chiudi' }).click();
  await expect(page.getByRole('link', { name: programName })).toBeVisible();

  // Clienti: a new customer lands on their page, with the card.
  await nav.getByRole('link', { name: 'Clienti', exact: true }).click();
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the customers list');
  await page.getByRole('link', { name: 'Nuovo cliente' }).click();
  const customerDrawer = page.getByRole('dialog', { name: 'Nuovo cliente' });
  await customerDrawer.getByRole('textbox', { name: /^Nome/ }).fill('Anna');
  await customerDrawer.getByRole('textbox', { name: /^Cognome/ }).fill(lastName);
  await customerDrawer.getByLabel(/^Data di nascita/).fill('1990-05-17');
  await customerDrawer.getByRole('button', { name: 'Crea cliente' }).click();
  await expect(page.getByRole('heading', { name: `Anna ${lastName}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Codice QR della tessera/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Codice a barre della tessera/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Cronologia dei consensi' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the customer page');

  // A purchase of 12,50 € at 2 points per euro: 25 points, shown before confirming.
  await page.getByRole('button', { name: 'Registra acquisto' }).click();
  const purchase = page.getByRole('dialog', { name: 'Registra acquisto' });
  // The dialog is still settling (transition, focus trap) when the first choice is made: check it held.
  await expect(async () => {
    await choose(page, purchase.getByLabel(/^Programma/), '', programName);
    await expect(purchase.getByLabel(/^Programma/)).toHaveValue(programName, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await choose(page, purchase.getByLabel(/^Esercente/), signName, signName);
  await purchase.getByRole('textbox', { name: /^Importo/ }).fill('12,50');
  await purchase.getByRole('button', { name: 'Continua' }).click();
  await expect(purchase.getByText('Il cliente riceverà 25 punti')).toBeVisible();
  await expect(purchase.getByText('12,50 €')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the purchase confirmation');
  await purchase.getByRole('button', { name: 'Conferma' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Acquisto registrato: saldo 25 punti' })).toBeVisible();
  const membership = page.getByRole('region', { name: programName });
  await expect(membership.getByTestId('membership-balance')).toHaveText('25');

  // The entry is in the customer's ledger; reversing it asks for a reason and brings the balance back.
  const ledger = page.getByRole('table', { name: 'Movimenti del cliente' });
  const row = ledger.getByRole('row').filter({ hasText: '+25' });
  await expect(row).toContainText('12,50 €');
  await row.getByRole('button', { name: /^Storna il movimento/ }).click();
  const reverse = page.getByRole('dialog', { name: 'Stornare questo movimento?' });
  await reverse.getByRole('textbox', { name: /^Motivo dello storno/ }).fill('Scontrino annullato');
  await reverse.getByRole('button', { name: 'Storna' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Movimento stornato.' })).toBeVisible();
  await expect(membership.getByTestId('membership-balance')).toHaveText('0');
  await expect(ledger.getByRole('row').filter({ hasText: '+25' }).getByText('Stornato')).toBeVisible();

  // Movimenti shows the same entries, filtered.
  await nav.getByRole('link', { name: 'Movimenti' }).click();
  await expect(page.getByRole('table', { name: 'Movimenti punti' }).getByRole('row').filter({ hasText: '12,50 €' }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the ledger list');

  // The customers list exports what it shows: Italian Excel (BOM, ";", dd/MM/yyyy).
  await page.goto(`/customers?q=${lastName}`);
  await expect(page.getByRole('link', { name: `${lastName} Anna` })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Esporta CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.charCodeAt(0), 'a UTF-8 BOM first').toBe(0xfeff);
  const lines = csv.slice(1).split(/\r?\n/).filter(Boolean);
  expect(lines[0]).toContain('Numero tessera;Cognome;Nome');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`;${lastName};Anna;`);
  expect(lines[1]).toContain(';17/05/1990;');
  expect(lines[1]).toMatch(/;\d{2}\/\d{2}\/\d{4}/);
});
