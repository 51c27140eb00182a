import { EDITOR, DEMO_PASSWORD, emailField, passwordField, submitLogin } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';

// This journey changes the editor's password, which the journeys on the main server sign in with, so it
// runs on the second server (the short-token one; its sign-ins do not depend on token lifetime).
test.use({ idTokenTtlSeconds: 4 });

test('a forgotten password is reset through the e-mailed link, and only the new password signs in', async ({ page, smtp, appServer }) => {
  const newPassword = 'Fresh-Reset-Passphrase-2026';

  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Password dimenticata?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await emailField(page).fill(EDITOR);
  await page.getByRole('button', { name: 'Invia il link di reimpostazione' }).click();
  await expect(page.getByRole('status')).toContainText('Il tuo account è stato reimpostato con successo.');

  const email = await smtp.waitForMessageTo(EDITOR);
  const content = `${email.text ?? ''}\n${email.html ?? ''}`;
  const link = /https?:\/\/[^\s"'<>]+\/auth\/reset-password\?token=[^\s"'<>]+/.exec(content)?.[0];
  expect(link, `a reset link in the e-mail "${email.subject}"`).toBeDefined();
  expect(link?.startsWith(`${appServer.url}/auth/reset-password?token=`), 'the link points at APP_URL').toBe(true);

  await page.goto(link?.replaceAll('&amp;', '&') ?? '');
  await expect(page.getByRole('heading', { name: 'Scegli una nuova password' })).toBeVisible();
  await passwordField(page, /^Nuova password/).fill(newPassword);
  await passwordField(page, /^Conferma la nuova password/).fill(newPassword);
  await page.getByRole('button', { name: 'Imposta la nuova password' }).click();

  await expect(page).toHaveURL(/\/auth\/login\?reset=done$/);
  await expect(page.getByRole('status')).toHaveText('La password è stata cambiata. Accedi con quella nuova.');

  await submitLogin(page, EDITOR, DEMO_PASSWORD, 'it');
  await expect(page.getByRole('alert')).toHaveText('I dati di accesso non sono corretti');

  await submitLogin(page, EDITOR, newPassword, 'it');
  await expect(page).toHaveURL(/\/news$/);

  // The link is single-use.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await page.goto(link?.replaceAll('&amp;', '&') ?? '');
  await passwordField(page, /^Nuova password/).fill('Another-Passphrase-2026');
  await passwordField(page, /^Conferma la nuova password/).fill('Another-Passphrase-2026');
  await page.getByRole('button', { name: 'Imposta la nuova password' }).click();
  await expect(page.getByRole('alert')).toContainText('non è valido o è scaduto');
});
