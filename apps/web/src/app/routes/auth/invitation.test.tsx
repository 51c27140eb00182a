import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { sessionStore } from '../../../lib/session.ts';
import { signInHandlers } from '../../../testing/auth-fixtures.ts';
import { server } from '../../../testing/msw-server.ts';
import { fakeIdToken, renderRoutes } from '../../../testing/test-utils.tsx';
import { Component as InvitationRoute } from './invitation.tsx';

const routes = [
  { path: '/auth/invitation', element: <InvitationRoute /> },
  { path: '/auth/login', element: <p>sign-in screen</p> },
  { path: '/news', element: <p>news screen</p> },
  { path: '/dashboard', element: <p>dashboard screen</p> },
];

const INVALID = { error: { code: 'invalid_invitation_token', message: 'not valid', requestId: 'r' } };

describe('the invitation page (/auth/invitation)', { timeout: 30_000 }, () => {
  it('shows the invitation, takes name and password, signs in with the invited role and goes to /news', async () => {
    document.cookie = 'XSRF-TOKEN=test-csrf; path=/';
    const user = userEvent.setup();
    const { handlers } = signInHandlers({ role: 'editor', email: 'elena@example.test', displayName: 'Elena Neri' });
    let accepted: unknown = null;
    server.use(
      ...handlers,
      http.post('/api/auth/invitation/details', () => HttpResponse.json({ email: 'elena@example.test', displayName: 'Elena Neri', role: 'editor' })),
      http.post('/api/auth/invitation/accept', async ({ request }) => {
        accepted = await request.json();
        const idToken = fakeIdToken({ sub: 'u-elena', role: 'editor', email: 'elena@example.test', name: 'Elena Neri' });
        return HttpResponse.json({ idToken, refreshToken: 'refresh-1', expiresIn: 900, localId: 'u-elena' });
      }),
    );
    const { router } = renderRoutes(routes, { route: '/auth/invitation?token=tok-1' });
    expect(await screen.findByRole('heading', { name: "Accetta l'invito" })).toBeInTheDocument();
    expect(screen.getByText(/come redattore con l'indirizzo elena@example\.test/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Nome/ })).toHaveValue('Elena');
    expect(screen.getByRole('textbox', { name: /^Cognome/ })).toHaveValue('Neri');
    await user.type(screen.getByLabelText(/^Password/), 'Invited-Passphrase-42');
    await user.type(screen.getByLabelText(/^Conferma la password/), 'Invited-Passphrase-4');
    await user.click(screen.getByRole('button', { name: 'Accetta ed entra' }));
    expect(await screen.findByText('Le password non coincidono')).toBeInTheDocument();
    expect(accepted).toBeNull();
    await user.type(screen.getByLabelText(/^Conferma la password/), '2');
    await user.click(screen.getByRole('button', { name: 'Accetta ed entra' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/news'));
    expect(accepted).toEqual({ token: 'tok-1', firstName: 'Elena', lastName: 'Neri', password: 'Invited-Passphrase-42' });
    expect(sessionStore.getState().status).toBe('signed-in');
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();
  });

  it('names each field by its own label, and says an empty confirmation is required', async () => {
    server.use(http.post('/api/auth/invitation/details', () => HttpResponse.json({ email: 'elena@example.test', displayName: 'Elena Neri', role: 'editor' })));
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/invitation?token=tok-1' });
    await user.type(await screen.findByLabelText(/^Password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Accetta ed entra' }));
    expect(await screen.findByText('La lunghezza minima di Password è 8')).toBeInTheDocument();
    expect(screen.getByText('Conferma la password è obbligatoria')).toBeInTheDocument();
  });

  it('says only "invalid or expired" for a link that cannot be used, and for a link without a token', async () => {
    document.cookie = 'XSRF-TOKEN=test-csrf; path=/';
    server.use(http.post('/api/auth/invitation/details', () => HttpResponse.json(INVALID, { status: 400 })));
    renderRoutes(routes, { route: '/auth/invitation?token=used', language: 'en' });
    expect(await screen.findByRole('heading', { name: 'Invalid invitation' })).toBeInTheDocument();
    expect(screen.getByText(/not valid, has expired or has already been used/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it('without a token in the link, shows the same page without asking the API', async () => {
    let asked = 0;
    server.use(http.post('/api/auth/invitation/details', () => ((asked += 1), HttpResponse.json(INVALID, { status: 400 }))));
    renderRoutes(routes, { route: '/auth/invitation' });
    expect(await screen.findByRole('heading', { name: 'Invito non valido' })).toBeInTheDocument();
    expect(asked).toBe(0);
  });
});
