import { expect, type Page } from '@playwright/test';

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The dashboard over the demo's last year, once a top reward's link is on screen. Every list of it holds
 * rows there, while the landing's last 30 days' top rewards come and go with the hour of the run: a check
 * of the landing alone passed and failed against the same build, an hour apart.
 */
export async function openDashboardOverAYear(page: Page): Promise<void> {
  const today = new Date();
  await page.goto(`/dashboard?from=${day(new Date(today.getTime() - 365 * 86_400_000))}&to=${day(today)}`);
  await expect(page.getByTestId('ranked-rewards').getByRole('link').first()).toBeVisible();
}
