import { ADMIN, signIn } from './support/auth.ts';
import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';

// Screens that load data on a shared two-core machine get 30 s, not 10.
const expect = baseExpect.configure({ timeout: 30_000 });

// The demo data makes the first start slower.
test.setTimeout(300_000);

const PROGRAM = 'Circuito Centro Storico';

test('an admin switches on the welcome, edits and previews it, and a new customer who joins that program receives it and sees it in Messaggi', async ({ page, smtp }) => {
  const run = `${Date.now()}`.slice(-6);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, ADMIN);
  const nav = page.getByRole('navigation', { name: 'Menu principale' });

  // A customer to preview with (no address: the preview sends nothing).
  await nav.getByRole('link', { name: 'Clienti', exact: true }).click();
  await page.getByRole('link', { name: 'Nuovo cliente' }).click();
  let customerDrawer = page.getByRole('dialog', { name: 'Nuovo cliente' });
  await customerDrawer.getByRole('textbox', { name: /^Nome/ }).fill('Piero');
  await customerDrawer.getByRole('textbox', { name: /^Cognome/ }).fill(`Anteprima${run}`);
  await customerDrawer.getByRole('button', { name: 'Crea cliente' }).click();
  await expect(page.getByRole('heading', { name: `Piero Anteprima${run}`, level: 1 })).toBeVisible();

  // Programmi fedeltà → the demo circuit → Messaggi automatici.
  await nav.getByRole('link', { name: 'Programmi fedeltà' }).click();
  await page.getByRole('link', { name: PROGRAM }).click();
  const drawer = page.getByRole('dialog', { name: 'Modifica programma' });
  await drawer.getByRole('tab', { name: 'Messaggi automatici' }).click();
  await expect(drawer.getByText('Nessun tracciamento di aperture o clic')).toBeVisible();
  await drawer.getByRole('switch', { name: 'Invia questo messaggio' }).check();
  await drawer.getByRole('textbox', { name: /^Oggetto \(italiano\)/ }).fill(`Benvenuto ${run}, {{nome}}`);
  await drawer.getByRole('button', { name: 'Salva messaggio' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Messaggio salvato' })).toBeVisible();
  // Before the preview: axe cannot enter the preview's sandboxed frame (no scripts run in it).
  await expectNoSeriousA11yViolations(page, 'the program\u2019s automatic messages');

  // An unknown placeholder is refused on its field.
  await drawer.getByRole('textbox', { name: /^Testo \(italiano\)/ }).fill('Ciao {{nome_cliente}}');
  await drawer.getByRole('button', { name: 'Salva messaggio' }).click();
  await expect(drawer.getByText(/il segnaposto \{\{nome_cliente\}\} non esiste/)).toBeVisible();
  // What was typed survives a look at the other tab; corrected, it is previewed as typed, unsaved.
  await drawer.getByRole('tab', { name: 'Programma' }).click();
  await drawer.getByRole('tab', { name: 'Messaggi automatici' }).click();
  const body = drawer.getByRole('textbox', { name: /^Testo \(italiano\)/ });
  await expect(body).toHaveValue('Ciao {{nome_cliente}}');
  await body.fill('Ciao {{nome}}, benvenuto!');

  // The preview with the real customer's values.
  const picker = drawer.getByRole('combobox', { name: /^Cliente per l'anteprima/ });
  await picker.fill(`Anteprima${run}`);
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(`Anteprima${run}`) }).first().click();
  await drawer.getByRole('button', { name: 'Mostra anteprima' }).click();
  await expect(drawer.getByText(`Benvenuto ${run}, Piero`)).toBeVisible();
  await expect(drawer.frameLocator(`iframe[title="Anteprima dell'e-mail"]`).getByText(/Ciao Piero/)).toBeVisible();
  await drawer.locator('iframe').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('service-emails-1366.png'), fullPage: false });
  // The corrected text was never saved: closing asks before dropping it.
  await drawer.getByRole('button', { name: 'Chiudi' }).click();
  await page.getByRole('dialog', { name: 'Scartare le modifiche?' }).getByRole('button', { name: 'Scarta le modifiche' }).click();
  await expect(drawer).toHaveCount(0);

  // A new customer with an address: the welcome arrives, and shows in the customer's Messaggi.
  const email = `benvenuto${run}@example.it`;
  await nav.getByRole('link', { name: 'Clienti', exact: true }).click();
  await page.getByRole('link', { name: 'Nuovo cliente' }).click();
  customerDrawer = page.getByRole('dialog', { name: 'Nuovo cliente' });
  await customerDrawer.getByRole('textbox', { name: /^Nome/ }).fill('Giada');
  await customerDrawer.getByRole('textbox', { name: /^Cognome/ }).fill(`Benvenuto${run}`);
  await customerDrawer.getByRole('textbox', { name: /^Email/ }).fill(email);
  // The program the customer joins, and the only one that welcomes them (three are active in the demo).
  await customerDrawer.getByRole('combobox', { name: 'Programma' }).click();
  await page.getByRole('listbox').getByRole('option', { name: PROGRAM, exact: true }).click();
  await expect(customerDrawer.getByText("l'eventuale e-mail di benvenuto parte da qui", { exact: false })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('new-customer-program-1366.png'), fullPage: false });
  await customerDrawer.getByRole('button', { name: 'Crea cliente' }).click();
  await expect(page.getByRole('heading', { name: `Giada Benvenuto${run}`, level: 1 })).toBeVisible();

  const mail = await smtp.waitForMessageTo(email, 60_000);
  expect(mail.subject).toBe(`Benvenuto ${run}, Giada`);
  expect(mail.text).toMatch(/\/c\/[A-Za-z0-9_-]{43}/);
  expect(mail.text).toMatch(/\/u\/[0-9a-f]{32}/);

  await page.reload();
  const messages = page.getByRole('region', { name: 'Messaggi' });
  await expect(messages.getByRole('cell', { name: `Benvenuto ${run}, Giada` })).toBeVisible();
  // Nothing from another program: one welcome, and a member of that program alone.
  expect(smtp.messages.filter((message) => message.to?.[0]?.address === email)).toHaveLength(1);
});
