import { expect, type Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';

/** Demo accounts loaded on the server's first start (S20). */
export const DEMO_PASSWORD = 'Demo-Password-2026';
export const ADMIN = 'admin@demo.test';
export const EDITOR = 'editor@demo.test';
export const MEMBER = 'member@demo.test';

const LABELS = {
  it: { submit: 'Accedi' },
  en: { submit: 'Sign in' },
} as const;

export function emailField(page: Page) {
  return page.getByRole('textbox', { name: /^Email/ });
}

export function passwordField(page: Page, name: RegExp = /^Password/) {
  return page.getByLabel(name).and(page.locator('input'));
}

/** Fills and sends the sign-in form, in the language the page shows. */
export async function submitLogin(page: Page, email: string, password: string, language: 'it' | 'en' = 'it'): Promise<void> {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: LABELS[language].submit, exact: true }).click();
}

export async function signIn(page: Page, email: string, options: { password?: string; language?: 'it' | 'en' } = {}): Promise<void> {
  await page.goto('/auth/login');
  await submitLogin(page, email, options.password ?? DEMO_PASSWORD, options.language);
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

export async function storedSession(page: Page): Promise<unknown> {
  return page.evaluate((key) => {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  }, SESSION_STORAGE_KEY);
}
