import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';

// The demo data makes the first start slower.
test.setTimeout(240_000);

test('an admin creates an API key (the secret shown once), the key works, then the admin revokes it and it stops working', async ({ page, baseURL }) => {
  const name = `App prova ${`${Date.now()}`.slice(-6)}`;
  await signIn(page, ADMIN);
  const nav = page.getByRole('navigation', { name: 'Menu principale' });
  // Pagine → Chiavi API; then the same address loaded afresh (a deep link: /api-keys is a page, not the API).
  await nav.getByRole('link', { name: 'Chiavi API', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Chiavi API', level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Chiavi API', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('row-skeleton')).toHaveCount(0, { timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'the API keys list');

  await page.getByRole('button', { name: 'Nuova chiave' }).click();
  const form = page.getByRole('dialog', { name: 'Nuova chiave API' });
  // Nothing filled in: the form names what is missing, in Italian.
  await form.getByRole('button', { name: 'Crea la chiave' }).click();
  await expect(form.getByText('Nome è obbligatorio')).toBeVisible();
  await form.getByRole('textbox', { name: /^Nome/ }).fill(name);
  await form.getByRole('radio', { name: 'App dei clienti' }).check();
  await form.getByRole('checkbox', { name: 'Leggere le tessere' }).check();
  await expectNoSeriousA11yViolations(page, 'the new API key form');
  await form.getByRole('button', { name: 'Crea la chiave' }).click();

  const shown = page.getByRole('dialog', { name: 'La nuova chiave' });
  await expect(shown.getByText('Copiala ora: non la vedrai più')).toBeVisible();
  const secret = await shown.getByTestId('api-key-secret').inputValue();
  expect(secret).toMatch(/^sfk_/);
  await expectNoSeriousA11yViolations(page, 'the secret shown once');
  await shown.getByRole('button', { name: 'Ho copiato la chiave' }).click();
  await expect(shown).toBeHidden();

  // Listed by its prefix, never its secret.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(secret.slice(0, 10));
  await expect(row).toContainText('Attiva');
  await expect(page.getByText(secret)).toHaveCount(0);

  // The key works on the integration API: an unknown card (scanned with its code, as the app's key
  // needs it) is "not found", not "unauthenticated".
  const card = '/api/integration/v1/cards/2799999999999-ABCDEFGHJK';
  const before = await page.request.get(`${baseURL}${card}`, { headers: { authorization: `Bearer ${secret}` } });
  expect(before.status()).toBe(404);

  await row.getByRole('button', { name: `Revoca la chiave ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revocare la chiave?' });
  await confirm.getByRole('button', { name: 'Revoca' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `Chiave «${name}» revocata` })).toBeVisible();
  await expect(row).toContainText('Revocata');
  await expect(row.getByRole('button', { name: /Revoca/ })).toHaveCount(0);

  const after = await page.request.get(`${baseURL}${card}`, { headers: { authorization: `Bearer ${secret}` } });
  expect(after.status()).toBe(401);
});
