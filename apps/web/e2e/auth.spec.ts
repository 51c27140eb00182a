import { SESSION_LIFETIME_MS, SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { ADMIN, DEMO_PASSWORD, EDITOR, MEMBER, emailField, passwordField, signIn, storedSession, submitLogin } from './support/auth.ts';
import { expect, preferEnglish, test } from './support/fixtures.ts';

test('an admin signs in (in Italian, the default), lands on the dashboard with the S2 session stored, and opens Clienti from the menu', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await expect(page.getByText('Social Fidelity v8.0.34')).toBeVisible();

  const before = Date.now();
  await submitLogin(page, ADMIN, DEMO_PASSWORD, 'it');

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Post delle news' })).toBeVisible();
  const session = (await storedSession(page)) as Record<string, string>;
  expect(Object.keys(session).sort()).toEqual(['authToken', 'expiresIn', 'refreshToken']);
  const expiresAt = Date.parse(session.expiresIn ?? '');
  expect(expiresAt).toBeGreaterThanOrEqual(before + SESSION_LIFETIME_MS - 1000);
  expect(expiresAt).toBeLessThanOrEqual(Date.now() + SESSION_LIFETIME_MS + 1000);

  // The morning's path (issue 32): from the landing screen to the customers list by the menu.
  await page.getByRole('navigation', { name: 'Menu principale' }).getByRole('link', { name: 'Clienti', exact: true }).click();
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Clienti' })).toBeVisible();
  // The tab names the screen (WCAG 2.4.2).
  await expect(page).toHaveTitle('Clienti · Social Fidelity');
  await expect(page.getByRole('main').locator('table tbody tr').filter({ has: page.getByRole('link') }).first()).toBeVisible();
});

test('an editor signs in on /news, and typing /dashboard or any other path brings them back to /news', async ({ page }) => {
  await preferEnglish(page);
  await signIn(page, EDITOR, { language: 'en' });
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

  for (const typed of ['/dashboard', '/', '/somewhere/else', '/auth/login', '/auth/registration']) {
    await page.goto(typed);
    await expect(page, `typing ${typed}`).toHaveURL(/\/news$/);
    await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  }
});

test('a member is refused with "The login detail is incorrect" and gets no session', async ({ page }) => {
  await page.goto('/auth/login');
  await submitLogin(page, MEMBER, DEMO_PASSWORD, 'it');
  await expect(page.getByRole('alert')).toHaveText('I dati di accesso non sono corretti');
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY)).toBeNull();

  // Nothing signed in behind the message either: the guarded area still sends the member back.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fdashboard$/);
});

test('an unknown path goes to /error/404, signed out and signed in as an admin', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/error\/404$/);
  await expect(page.getByRole('heading', { name: 'Pagina non trovata' })).toBeVisible();

  await signIn(page, ADMIN);
  await page.goto('/reports/unknown');
  await expect(page).toHaveURL(/\/error\/404$/);
  await page.getByRole('link', { name: 'Torna alla home' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a new account registers and reads that an administrator must grant access', async ({ page }) => {
  await preferEnglish(page);
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/registration$/);

  const email = `new.staff.${Date.now()}@example.test`;
  await page.getByRole('textbox', { name: /^First name/ }).fill('Giulia');
  await page.getByRole('textbox', { name: /^Last name/ }).fill('Bianchi');
  await emailField(page).fill(email);
  await passwordField(page).fill('A-long-and-unusual-passphrase-42');
  await page.getByRole('checkbox', { name: /terms & conditions/ }).check();
  await page.getByRole('button', { name: 'Register', exact: true }).click();

  const outcome = page.getByRole('status');
  await expect(outcome).toContainText('Your account has been successfully registered.');
  await expect(outcome).toContainText('An administrator must grant you access');
  expect(await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY)).toBeNull();

  // The account exists but may not enter until a role is granted (B7).
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await submitLogin(page, email, 'A-long-and-unusual-passphrase-42', 'en');
  await expect(page.getByRole('alert')).toHaveText('The login detail is incorrect');
});

test('a new account confirms its address through the e-mailed link, once', async ({ page, smtp, appServer }) => {
  await preferEnglish(page);
  await page.goto('/auth/registration');
  const email = `confirming.${Date.now()}@example.test`;
  await page.getByRole('textbox', { name: /^First name/ }).fill('Carla');
  await page.getByRole('textbox', { name: /^Last name/ }).fill('Verdi');
  await emailField(page).fill(email);
  await passwordField(page).fill('Another-unusual-passphrase-77');
  await page.getByRole('checkbox', { name: /terms & conditions/ }).check();
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('confirm your address');

  const mail = await smtp.waitForMessageTo(email);
  const link = /https?:\/\/[^\s"'<>]+\/auth\/confirm-email\?token=[^\s"'<>]+/.exec(mail.text ?? '')?.[0];
  expect(link?.startsWith(`${appServer.url}/auth/confirm-email?token=`), 'a confirmation link to APP_URL').toBe(true);
  await page.goto(link ?? '');
  await expect(page.getByRole('status')).toContainText('Your address is confirmed.');
  // Single use: the same link again says so.
  await page.goto(link ?? '');
  await expect(page.getByRole('alert')).toContainText('This confirmation link is not valid any more');
  // Confirmed, but no role yet: the sign-in is still refused like a wrong password.
  await page.goto('/auth/login');
  await submitLogin(page, email, 'Another-unusual-passphrase-77', 'en');
  await expect(page.getByRole('alert')).toHaveText('The login detail is incorrect');
});

test('the language chosen (it ↔ en) survives a reload, before and after signing in', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Accedi' })).toBeVisible();

  await page.getByText('English', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('language'))).toBe('en');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await submitLogin(page, ADMIN, DEMO_PASSWORD, 'en');
  await expect(page.getByRole('heading', { name: 'Latest changes' })).toBeVisible();
  await page.getByRole('button', { name: /^Account menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();
  await expect(page.getByRole('heading', { name: 'Ultime modifiche' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('language'))).toBe('it');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Ultime modifiche' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
});

test('signing out goes to /auth/login and removes the stored session', async ({ page }) => {
  await signIn(page, ADMIN);
  expect(await storedSession(page)).not.toBeNull();

  await page.getByRole('button', { name: /^Menu dell'account di/ }).click();
  await page.getByRole('menuitem', { name: 'Esci' }).click();

  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(await storedSession(page)).toBeNull();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fdashboard$/);
});
