import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { ADMIN, DEMO_PASSWORD, signIn, storedSession, submitLogin } from './support/auth.ts';
import { expect, preferEnglish, test } from './support/fixtures.ts';

const TTL_SECONDS = 4;

// Its own server: ID tokens that live four seconds, so the journey can outlive several of them.
test.use({ idTokenTtlSeconds: TTL_SECONDS });

test('with 4-second ID tokens the app keeps working across expiry without the user noticing', async ({ page }) => {
  const refreshes: number[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'POST' && new URL(response.url()).pathname === '/api/auth/token') refreshes.push(response.status());
  });
  const tokenNow = async () => ((await storedSession(page)) as { authToken: string } | null)?.authToken;

  await preferEnglish(page);
  await signIn(page, ADMIN, { language: 'en' });
  await expect(page.getByRole('heading', { name: 'Latest changes' })).toBeVisible();
  const firstToken = await tokenNow();

  // Navigate after the token has expired: the screen's data loads as if nothing happened.
  await page.waitForTimeout((TTL_SECONDS + 1.5) * 1000);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'News', exact: true }).click();
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.getByRole('link', { name: 'Benvenuti nel nuovo programma fedeltà' })).toBeVisible();
  await expect.poll(() => refreshes.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
  const refreshedToken = await tokenNow();
  expect(refreshedToken).toBeTruthy();
  expect(refreshedToken).not.toBe(firstToken);

  // Reload after the new token has expired too: start-up checks the stored session and still gets in.
  const refreshesBeforeReload = refreshes.length;
  await page.waitForTimeout((TTL_SECONDS + 1.5) * 1000);
  await page.reload();
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.getByRole('link', { name: 'Benvenuti nel nuovo programma fedeltà' })).toBeVisible();
  await expect.poll(() => refreshes.length).toBeGreaterThan(refreshesBeforeReload);

  // Open the dashboard on the client after yet another expiry.
  await page.waitForTimeout((TTL_SECONDS + 1.5) * 1000);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Latest changes' })).toBeVisible();

  expect(refreshes.every((status) => status === 200), `refresh answers: ${refreshes.join(', ')}`).toBe(true);
  await expect(page.getByText('Your session has expired. Please sign in again.')).toHaveCount(0);
  await expect(page).not.toHaveURL(/\/auth\//);
});

test('a news post being written when the refresh is refused is back in the form after signing in again', async ({ page }) => {
  // The admin, not the editor: password-reset.spec.ts changes the editor's password on this same server.
  await signIn(page, ADMIN);
  await page.goto('/news?post=new');
  await page.getByRole('textbox', { name: /Titolo/ }).fill('Scritto prima che la sessione finisse');
  await page.getByRole('textbox', { name: /Sommario/ }).fill('Un sommario da non perdere');

  // The session is revoked meanwhile (an admin disabled the account, a sign-out elsewhere): the ID
  // token expires and its refresh is refused.
  await page.evaluate((key) => {
    const session = JSON.parse(window.localStorage.getItem(key) ?? '{}') as Record<string, string>;
    window.localStorage.setItem(key, JSON.stringify({ ...session, refreshToken: 'revoked-elsewhere' }));
  }, SESSION_STORAGE_KEY);
  await page.waitForTimeout((TTL_SECONDS + 1.5) * 1000);
  await page.getByRole('button', { name: 'Salva bozza' }).click();

  await expect(page).toHaveURL(/\/auth\/login\?redirect=/);
  await expect(page.getByText('La sessione è scaduta. Accedi di nuovo.').first()).toBeVisible();
  await submitLogin(page, ADMIN, DEMO_PASSWORD);

  await expect(page).toHaveURL(/\/news\?post=new$/);
  await expect(page.getByRole('status').filter({ hasText: 'Abbiamo ripristinato quello che avevi scritto' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Titolo/ })).toHaveValue('Scritto prima che la sessione finisse');
  await expect(page.getByRole('textbox', { name: /Sommario/ })).toHaveValue('Un sommario da non perdere');
  await page.screenshot({ path: test.info().outputPath('kept-edits-restored.png') });
});
