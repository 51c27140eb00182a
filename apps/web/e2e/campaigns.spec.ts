import type { Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { expectNoSeriousA11yViolations } from './support/accessibility.ts';
import { ADMIN, signIn } from './support/auth.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';

// Screens that load data on a shared two-core machine get 30 s, not 10.
const expect = baseExpect.configure({ timeout: 30_000 });

// The demo data makes the first start slower.
test.setTimeout(300_000);

const PROGRAM = 'Circuito Centro Storico';

/**
 * Arranges (never checks) a customer who consented to marketing and bought today in the demo circuit,
 * through the API with the signed-in admin's session.
 */
async function consentingMember(page: Page, run: string): Promise<{ email: string }> {
  return page.evaluate(
    async ({ key, program, run }) => {
      const session = JSON.parse(window.localStorage.getItem(key) ?? '{}') as { authToken?: string };
      const csrf = document.cookie.split('; ').find((cookie) => /^(__Host-)?XSRF-TOKEN=/.test(cookie))?.split('=')[1] ?? '';
      const headers = { 'content-type': 'application/json', 'x-auth-token': session.authToken ?? '', 'x-xsrf-token': decodeURIComponent(csrf) };
      const consent = { granted: true, channel: 'counter', noticeVersion: '2026-01' };
      const email = `campagna${run}@example.it`;
      const created = await fetch('/api/admin/customers', {
        method: 'POST',
        headers,
        body: JSON.stringify({ firstName: 'Giulia', lastName: `Campagna${run}`, email, consents: { service: consent, marketing: consent } }),
      });
      const customer = (await created.json()) as { id: string };
      const programs = (await (await fetch(`/api/admin/programs?q=${encodeURIComponent(program)}`, { headers })).json()) as { items: { id: string; merchantIds: string[] }[] };
      const chosen = programs.items[0]!;
      await fetch('/api/admin/ledger', {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': `e2e-campaign-${run}` },
        body: JSON.stringify({ customerId: customer.id, programId: chosen.id, merchantId: chosen.merchantIds[0], kind: 'purchase', amountCents: 500 }),
      });
      return { email };
    },
    { key: SESSION_STORAGE_KEY, program: PROGRAM, run },
  );
}

test('an admin builds an audience, sees the count, sends a test, sends, and watches the report fill in', async ({ page, smtp }) => {
  const run = `${Date.now()}`.slice(-6);
  await signIn(page, ADMIN);
  const member = await consentingMember(page, run);
  // Today as an Italian writes it (21/11/2026), which the date field reads whatever the browser's language.
  const today = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

  const nav = page.getByRole('navigation', { name: 'Menu principale' });
  await nav.getByRole('link', { name: 'Campagne', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Campagne', level: 1 })).toBeVisible();
  await expect(page.getByText('Nessun pixel di tracciamento e nessun tracciamento dei clic, per scelta').first()).toBeVisible();
  // The list kit's create action is a link to the editor drawer's address (`?campaign=new`).
  await page.getByRole('link', { name: 'Nuova campagna' }).click();
  const drawer = page.getByRole('dialog', { name: 'Nuova campagna' });
  await drawer.getByRole('textbox', { name: /^Nome/ }).fill(`Ci manchi ${run}`);
  await drawer.getByRole('textbox', { name: /^Oggetto/ }).fill('Ciao {{nome}}, un caffè ti aspetta');
  await drawer.getByRole('textbox', { name: 'Testo' }).fill('Passa al bar: il caffè lo offriamo noi.');

  // The audience: the circuit's members who joined today; the count and the sample follow the filters.
  await drawer.getByLabel('Programma', { exact: true }).click();
  await page.getByRole('listbox').getByRole('option', { name: PROGRAM }).click();
  // Typed, its calendar left open for the accessibility check below.
  await drawer.getByRole('textbox', { name: 'Iscritti dal' }).pressSequentially(today);
  await expect(drawer.getByTestId('audience-sample')).toContainText(member.email);
  await expect(drawer.getByTestId('audience-count')).not.toHaveText('0');
  await expectNoSeriousA11yViolations(page, 'the campaign editor');

  await drawer.getByRole('button', { name: 'Invia una prova a me' }).click();
  await expect(page.getByText(`Prova inviata a ${ADMIN}`)).toBeVisible();
  const copy = await smtp.waitForMessageTo(ADMIN);
  expect(copy.subject).toMatch(/^\[Prova\] Ciao .+, un caffè ti aspetta$/);

  // Saved by the test send: the drawer now edits the stored draft.
  const sending = page.getByRole('dialog', { name: 'Campagna' });
  await sending.getByRole('button', { name: 'Invia ora' }).click();
  // Asked first, with how many it reaches: a sending cannot be called back.
  const ask = page.getByRole('dialog', { name: 'Inviare la campagna adesso?' });
  await expect(ask).toContainText(new RegExp(`«Ci manchi ${run}» parte adesso per [\\d.]+ client[ei]\\.`));
  await expectNoSeriousA11yViolations(page, 'the confirmation before sending');
  await ask.getByRole('button', { name: 'Invia adesso' }).click();
  // The report fills in by itself until the campaign reads "Inviata".
  await expect(sending.getByText('Inviata', { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(sending.getByTestId('count-queued')).toHaveText('0');
  await expect(sending.getByTestId('count-sent')).not.toHaveText('0');
  const received = await smtp.waitForMessageTo(member.email, 60_000);
  expect(received.subject).toBe('Ciao Giulia, un caffè ti aspetta');
  expect(received.headers.find((header) => header.key === 'list-unsubscribe-post')?.value).toBe('List-Unsubscribe=One-Click');
  await expectNoSeriousA11yViolations(page, 'the campaign report');
});
