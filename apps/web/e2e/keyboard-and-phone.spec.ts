import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, DEMO_PASSWORD, EDITOR, emailField, passwordField, signIn } from './support/auth.ts';
import { openDashboardOverAYear } from './support/dashboard.ts';
import { expect, test } from './support/fixtures.ts';

/** Presses Tab until `target` has the focus (at most `limit` times), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, limit = 25): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reachable with Tab within ${limit} presses`).toBeFocused();
}

test('a keyboard-only editor signs in, skips to the content and opens and closes the post editor', async ({ page }) => {
  await page.goto('/auth/login');
  await tabTo(page, emailField(page));
  await page.keyboard.type(EDITOR);
  await page.keyboard.press('Tab');
  await expect(passwordField(page)).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.getByRole('link', { name: 'Benvenuti nel nuovo programma fedeltà' })).toBeVisible();

  // The first Tab stop is the skip link; it moves the focus past the menu.
  await page.keyboard.press('Tab');
  const skipLink = page.getByRole('link', { name: 'Vai al contenuto principale' });
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  await tabTo(page, page.getByRole('link', { name: 'Nuovo post', exact: true }));
  await page.keyboard.press('Enter');
  const editor = page.getByRole('dialog', { name: 'Nuovo post' });
  await expect(editor).toBeVisible();
  // The drawer keeps the focus inside while open.
  for (let presses = 0; presses < 8; presses += 1) await page.keyboard.press('Tab');
  expect(await editor.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);

  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(page).toHaveURL(/\/news(#main-content)?$/);
});

test.describe('on a phone-sized screen', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('the menu opens from its button, leads to the news and the screens stay accessible', async ({ page }) => {
    await page.goto('/auth/login');
    await expectNoSeriousA11yViolations(page, 'the sign-in screen on a phone');
    await signIn(page, ADMIN);
    await expect(page.getByRole('heading', { name: 'Ultime modifiche' })).toBeVisible();

    const menu = page.getByRole('navigation', { name: 'Menu principale' });
    // The collapsed menu slides off the screen (it stays in the page).
    await expect(menu).not.toBeInViewport();
    const toggle = page.getByRole('button', { name: 'Apri o chiudi il menu' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await menu.getByRole('link', { name: 'News', exact: true }).click();
    await expect(page).toHaveURL(/\/news$/);
    await expect(menu).not.toBeInViewport();
    await expect(page.getByRole('link', { name: 'Benvenuti nel nuovo programma fedeltà' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the news list on a phone');

    await page.getByRole('link', { name: 'Benvenuti nel nuovo programma fedeltà' }).click();
    await expect(page.getByRole('dialog', { name: 'Modifica post' }).getByRole('textbox', { name: /^Titolo/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the news editor on a phone');
  });
});

test.describe('on a 390 × 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  const SCROLL_HINT = 'Scorri la tabella di lato per vedere tutte le colonne.';
  /** The line said above a table's shaded scroll box (a page may have several: the customer's consents and entries). */
  const scrollHintOf = (table: Locator) => table.locator('xpath=ancestor::div[@data-more-start or @data-more-end][1]/preceding-sibling::*[1]');

  /** How far the page scrolls sideways (0: it does not). */
  const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  test('the header holds on one line, a customer page and its purchase dialog stay within the screen, Movimenti says it scrolls', async ({ page }) => {
    await signIn(page, ADMIN);
    await expect(page.getByRole('heading', { name: 'Ultime modifiche' })).toBeVisible();
    // The app's name as its initials: "Social Fidelity" took two lines.
    const brand = page.getByRole('banner').getByRole('link', { name: 'SF', exact: true });
    expect(await brand.evaluate((link) => (link as HTMLElement).innerText.trim())).toBe('SF');
    const account = page.getByRole('button', { name: /^Menu dell'account/ });
    expect((await brand.boundingBox())!.height).toBeLessThan(32);
    const accountBox = (await account.boundingBox())!;
    expect(accountBox.x + accountBox.width).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page, 'the dashboard on a 390 px phone');
    // "Ultime modifiche" is wider than the phone: it says so and shades its edge, as the lists do.
    const changes = page.getByRole('group', { name: 'Ultime modifiche' });
    await expect(changes.locator('xpath=ancestor::div[@data-more-end]')).toHaveCount(1);
    await expect(scrollHintOf(changes)).toHaveText(SCROLL_HINT);

    await page.goto('/customers');
    await page.getByRole('table').getByRole('link').first().click();
    const consents = page.getByRole('heading', { name: 'Consensi' });
    await expect(consents).toBeVisible();
    const card = consents.locator('xpath=ancestor::div[contains(@class, "mantine-Paper-root")][1]');
    const cardBox = (await card.boundingBox())!;
    const buttons = card.getByRole('button', { name: /consenso/ });
    await expect(buttons.first()).toBeVisible();
    for (const button of await buttons.all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, `${await button.textContent()} inside its card`).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    }
    expect(await sidewaysScroll(page)).toBe(0);

    // The customer's entries are wider than the phone: the table says so, and its right edge is shaded.
    const ledger = page.getByRole('table', { name: 'Movimenti del cliente' });
    await expect(ledger).toBeVisible();
    await expect(scrollHintOf(ledger)).toHaveText(SCROLL_HINT);
    await expect(ledger.locator('xpath=ancestor::div[@data-more-end]')).toHaveCount(1);

    await page.getByRole('button', { name: 'Registra acquisto' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await sidewaysScroll(page)).toBe(0);
  });
});

test('in the dark theme the dashboard and the news list have no serious accessibility violation', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('color-scheme', 'dark'));
  await signIn(page, ADMIN);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('heading', { name: 'Ultime modifiche' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the dashboard in the dark theme');
  await openDashboardOverAYear(page);
  await expectNoSeriousA11yViolations(page, 'the dashboard over a year in the dark theme');
  await page.goto('/news');
  await expect(page.getByRole('link', { name: 'Benvenuti nel nuovo programma fedeltà' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the news list in the dark theme');
});
