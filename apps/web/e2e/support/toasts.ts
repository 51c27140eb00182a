import { expect, type Page } from '@playwright/test';

/**
 * Checks that a toast says `text`, then closes it with its own button, as an operator does when it
 * covers what they want next. Toasts stay 5 s at the top right (S16), over a drawer's close button and
 * a list's "Nuovo …" link: an action under one waited for it to go by itself (Playwright retries the
 * click until nothing covers it). That was 5.1 s and 5.6 s of the loyalty journey and 3.3 s of the
 * rewards one (their traces, `npx playwright test <spec> --trace on`).
 */
export async function closeToast(page: Page, text: string | RegExp, options: { timeout?: number } = {}): Promise<void> {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await expect(toast).toBeVisible(options);
  // On a loaded machine the toast may reach its 5 s and go by itself between the check and the click:
  // what the journey needs is that it is gone, whichever way.
  await toast
    .getByRole('button', { name: /^(Chiudi|Close)$/ })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await expect(toast).toHaveCount(0);
}
