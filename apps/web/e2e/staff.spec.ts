import { ADMIN, emailField, passwordField, signIn } from './support/auth.ts';
import { expect, test } from './support/fixtures.ts';

const PASSPHRASE = 'Invited-Editor-Passphrase-2026';

test('an admin invites an editor by e-mail; the editor sets name and password through the link and lands on /news', async ({ page, browser, smtp, appServer }) => {
  const email = `invited.${Date.now()}@example.test`;
  await signIn(page, ADMIN);
  await page.getByRole('navigation', { name: 'Menu principale' }).getByRole('link', { name: /^Staff/ }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Inviti' }).click();
  await page.getByRole('button', { name: 'Invita' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invita nello staff' });
  await dialog.getByRole('textbox', { name: /^Nome visualizzato/ }).fill('Elena Neri');
  await dialog.getByRole('textbox', { name: /^Email/ }).fill(email);
  await dialog.getByRole('button', { name: "Invia l'invito" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('In attesa');

  // The e-mail, read from the local SMTP catcher.
  const mail = await smtp.waitForMessageTo(email);
  expect(mail.subject).toBe('Sei stato invitato nel back-office di Social Fidelity');
  const link = /https?:\/\/[^\s"'<>]+\/auth\/invitation\?token=[^\s"'<>]+/.exec(mail.text ?? '')?.[0];
  expect(link?.startsWith(`${appServer.url}/auth/invitation?token=`), 'an invitation link to APP_URL').toBe(true);

  // The invitee, in a browser of their own.
  const invitee = await browser.newContext({ baseURL: appServer.url, locale: 'it-IT' });
  const inviteePage = await invitee.newPage();
  try {
    await inviteePage.goto(link ?? '');
    await expect(inviteePage.getByRole('heading', { name: "Accetta l'invito" })).toBeVisible();
    await expect(inviteePage.getByText(email)).toBeVisible();
    await expect(inviteePage.getByRole('textbox', { name: /^Nome/ })).toHaveValue('Elena');
    await expect(inviteePage.getByRole('textbox', { name: /^Cognome/ })).toHaveValue('Neri');
    await passwordField(inviteePage, /^Password/).fill(PASSPHRASE);
    await passwordField(inviteePage, /^Conferma la password/).fill(PASSPHRASE);
    await inviteePage.getByRole('button', { name: 'Accetta ed entra' }).click();
    await expect(inviteePage).toHaveURL(/\/news$/);
    await expect(inviteePage.getByRole('navigation', { name: 'Menu principale' }).getByRole('link', { name: 'Staff' })).toHaveCount(0);

    // The link was single-use.
    await inviteePage.context().clearCookies();
    await inviteePage.evaluate(() => window.localStorage.clear());
    await inviteePage.goto(link ?? '');
    await expect(inviteePage.getByRole('heading', { name: 'Invito non valido' })).toBeVisible();
  } finally {
    await invitee.close();
  }

  // The accepted invitation left the admin's list; the account is in the staff list as editor.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Account' }).click();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Redattore');
});

test('an admin approves a self-registered account as editor, after a confirmation, and the editor then enters', async ({ page, browser, smtp, appServer }) => {
  const email = `self.registered.${Date.now()}@example.test`;
  const newcomer = await browser.newContext({ baseURL: appServer.url, locale: 'it-IT' });
  const newcomerPage = await newcomer.newPage();
  try {
    await newcomerPage.goto('/auth/registration');
    await newcomerPage.getByRole('textbox', { name: /^Nome/ }).fill('Paolo');
    await newcomerPage.getByRole('textbox', { name: /^Cognome/ }).fill('Gialli');
    await emailField(newcomerPage).fill(email);
    await passwordField(newcomerPage).fill(PASSPHRASE);
    await newcomerPage.getByRole('checkbox', { name: /termini e le condizioni/ }).check();
    await newcomerPage.getByRole('button', { name: 'Registrati', exact: true }).click();
    await expect(newcomerPage.getByRole('status')).toContainText('registrato con successo');
    const mail = await smtp.waitForMessageTo(email);
    const link = /https?:\/\/[^\s"'<>]+\/auth\/confirm-email\?token=[^\s"'<>]+/.exec(mail.text ?? '')?.[0];
    await newcomerPage.goto(link ?? '');
    await expect(newcomerPage.getByRole('status')).toBeVisible();

    // The admin sees the badge in the menu and the account among those waiting (other journeys on this
    // server may have left waiting accounts too: the waiting-first order is checked by the API tests).
    await signIn(page, ADMIN);
    const staffLink = page.getByRole('navigation', { name: 'Menu principale' }).getByRole('link', { name: /^Staff/ });
    await expect(staffLink.getByTestId('pending-staff-badge')).toBeVisible();
    await expect(page.getByTestId('pending-staff')).toBeVisible();
    await staffLink.click();
    const waitingRow = page.getByRole('table').first().getByRole('row').filter({ hasText: email });
    await expect(waitingRow).toContainText('In attesa di approvazione');
    await waitingRow.getByRole('button', { name: 'Approva: Paolo Gialli' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approva Paolo Gialli' });
    await expect(dialog.getByLabel('Ruolo').and(page.locator('input'))).toHaveValue('Redattore');
    await dialog.getByRole('button', { name: 'Approva' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Redattore');

    // The approved editor signs in and lands on /news.
    await newcomerPage.goto('/auth/login');
    await emailField(newcomerPage).fill(email);
    await passwordField(newcomerPage).fill(PASSPHRASE);
    await newcomerPage.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(newcomerPage).toHaveURL(/\/news$/);
  } finally {
    await newcomer.close();
  }
});
