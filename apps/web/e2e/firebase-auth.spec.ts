import { test, expect } from './support/fixtures.ts';
import { ADMIN, DEMO_PASSWORD, submitLogin } from './support/auth.ts';

// This file's worker runs the app with AUTH_PROVIDER=firebase against the Firebase Auth emulator.
test.use({ authProvider: 'firebase' });

/** The emulator's own admin API (the "owner" token is the emulator's): what the Admin SDK does on a real project. */
async function firebaseStaffUser(host: string, email: string, password: string, role: string) {
  const base = `http://${host}/identitytoolkit.googleapis.com/v1`;
  const created = await fetch(`${base}/accounts:signUp?key=e2e`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  expect(created.ok).toBe(true);
  const { localId } = (await created.json()) as { localId: string };
  const updated = await fetch(`${base}/projects/demo-sf-e2e/accounts:update`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer owner' },
    body: JSON.stringify({ localId, emailVerified: true, customAttributes: JSON.stringify({ role }) }),
  });
  expect(updated.ok).toBe(true);
}

test('with Firebase as the provider, an admin signs in with the Firebase password and sees the dashboard; a wrong one reads S1', async ({
  page,
  firebaseEmulatorHost,
}) => {
  // The demo admin of our database, whose Firebase user (verified address, role claim) exists already:
  // the first sign-in links the two by the verified address.
  const firebasePassword = 'Firebase-Password-2026';
  await firebaseStaffUser(firebaseEmulatorHost ?? '', ADMIN, firebasePassword, 'admin');

  await page.goto('/auth/login');
  // The password of our own database is not the one Firebase keeps.
  await submitLogin(page, ADMIN, DEMO_PASSWORD);
  await expect(page.getByText(/I dati di accesso non sono corretti|The login detail is incorrect/)).toBeVisible();

  await submitLogin(page, ADMIN, firebasePassword);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // A reload goes through S4's start-up check with the stored Firebase token.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});
