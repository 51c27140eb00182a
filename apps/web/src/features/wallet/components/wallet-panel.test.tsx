import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { WalletStatus } from '@sf/contract/wallet';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { WalletPanel } from './wallet-panel.tsx';

const MEMBERSHIP = '5b1e7f3a-9c2d-4e8f-a1b2-c3d4e5f60718';
const admin = { role: 'admin' as const, timeZone: 'Europe/Rome' };
const NOT_CONFIGURED = 'Il portafoglio Apple Wallet non è configurato: imposta APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT';

function answer(status: WalletStatus, emailRefusal: string | null = null) {
  let link = 'https://carte.example.it/c/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  const calls: string[] = [];
  server.use(
    // The forgery-protection cookie a POST needs (api-client primes it once).
    http.get('/api/healthz', () => {
      document.cookie = 'XSRF-TOKEN=test-csrf; path=/';
      return HttpResponse.json({ status: 'ok' });
    }),
    http.get('/api/admin/wallet/status', () => HttpResponse.json(status)),
    http.get(`/api/admin/memberships/${MEMBERSHIP}/card-link`, () => HttpResponse.json({ url: link, emailRefusal })),
    http.post(`/api/admin/memberships/${MEMBERSHIP}/card-link`, () => {
      calls.push('regenerate');
      link = 'https://carte.example.it/c/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
      return HttpResponse.json({ url: link, emailRefusal });
    }),
    http.post(`/api/admin/memberships/${MEMBERSHIP}/card-link/email`, () => {
      calls.push('email');
      return HttpResponse.json({ sentTo: 'mario@example.it' });
    }),
  );
  return calls;
}

const render = () =>
  renderWithProviders(<WalletPanel memberships={[{ id: MEMBERSHIP, programName: 'Circuito Centro' }]} holder="Mario Rossi" isActive canWrite />, { route: '/customers/x', user: admin });

describe('Tessera nel telefono', { timeout: 30_000 }, () => {
  it('shows the card link, regenerates it after a confirmation and sends it by e-mail', async () => {
    const calls = answer({ apple: { isConfigured: true, message: null }, google: { isConfigured: true, message: null } });
    const user = userEvent.setup();
    render();
    const field = await screen.findByRole('textbox', { name: 'Link della tessera per Circuito Centro' });
    await waitFor(() => expect(field).toHaveValue('https://carte.example.it/c/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
    await user.click(screen.getByRole('button', { name: 'Rigenera link' }));
    await user.click(await screen.findByRole('button', { name: 'Rigenera' }));
    await waitFor(() => expect(field).toHaveValue('https://carte.example.it/c/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'));
    await user.click(screen.getByRole('button', { name: 'Invia per e-mail' }));
    expect(await screen.findByText('Link della tessera inviato a mario@example.it')).toBeInTheDocument();
    expect(calls).toEqual(['regenerate', 'email']);
    expect(screen.getByRole('button', { name: 'Apple Wallet (.pkpass)' })).toBeEnabled();
  });

  it('says why the card cannot be sent by e-mail and disables the button, before anyone clicks', async () => {
    const calls = answer({ apple: { isConfigured: true, message: null }, google: { isConfigured: true, message: null } }, 'Il cliente non ha un indirizzo e-mail');
    render();
    const field = await screen.findByRole('textbox', { name: 'Link della tessera per Circuito Centro' });
    await waitFor(() => expect(field).not.toHaveValue(''));
    const send = screen.getByRole('button', { name: 'Invia per e-mail' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription('Il cliente non ha un indirizzo e-mail');
    expect(screen.getByText('Il cliente non ha un indirizzo e-mail')).toBeVisible();
    // Copying and regenerating the link stay possible.
    expect(screen.getByRole('button', { name: 'Copia link' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Rigenera link' })).toBeEnabled();
    expect(calls).toEqual([]);
  });

  it('disables a wallet that is not configured, with the server\'s text', async () => {
    answer({ apple: { isConfigured: false, message: NOT_CONFIGURED }, google: { isConfigured: true, message: null } });
    const user = userEvent.setup();
    render();
    // Enabled until the status arrives, then drawn again (inside its tooltip) disabled.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Apple Wallet (.pkpass)' })).toBeDisabled());
    const apple = screen.getByRole('button', { name: 'Apple Wallet (.pkpass)' });
    expect(screen.getByRole('button', { name: 'Google Wallet' })).toBeEnabled();
    await user.hover(apple.parentElement!);
    expect(await screen.findByText(NOT_CONFIGURED)).toBeInTheDocument();
  });
});
