import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { sessionStore } from '../../../lib/session.ts';
import { signInHandlers } from '../../../testing/auth-fixtures.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoutes } from '../../../testing/test-utils.tsx';
import { Component as ForgotPasswordRoute } from './forgot-password.tsx';
import { Component as LoginRoute } from './login.tsx';
import { Component as RegistrationRoute } from './registration.tsx';
import { Component as ResetPasswordRoute } from './reset-password.tsx';
import { Component as ConfirmEmailRoute } from './confirm-email.tsx';

const routes = [
  { path: '/auth/login', element: <LoginRoute /> },
  { path: '/auth/registration', element: <RegistrationRoute /> },
  { path: '/auth/forgot-password', element: <ForgotPasswordRoute /> },
  { path: '/auth/reset-password', element: <ResetPasswordRoute /> },
  { path: '/auth/confirm-email', element: <ConfirmEmailRoute /> },
  { path: '/news', element: <p>news screen</p> },
  { path: '/dashboard', element: <p>dashboard screen</p> },
];

describe('registration (S6, B7)', () => {
  it('shows the S12 texts in Italian, including the terms checkbox', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/registration' });
    await user.type(screen.getByLabelText(/^Password/), 'short');
    expect(await screen.findByText('La lunghezza minima di Password è 8')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Registrati' }));
    expect(await screen.findByText('Nome è obbligatorio')).toBeInTheDocument();
    expect(screen.getByText('Cognome è obbligatorio')).toBeInTheDocument();
    expect(screen.getByText('Email è obbligatoria')).toBeInTheDocument();
    expect(screen.getByText('È necessario accettare i termini e le condizioni')).toBeInTheDocument();
  });

  it('shows the same texts in English', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/registration', language: 'en' });
    await user.type(screen.getByLabelText(/^Email/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Email is not valid')).toBeInTheDocument();
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Accepting terms & conditions are required')).toBeInTheDocument();
  });

  it('registers, tries the automatic sign-in, which is refused like a wrong password, and explains what comes next without a session', async () => {
    // The provider gives an account without a staff role no tokens (S1): its sign-in answers 400.
    const { handlers, calls } = signInHandlers({ email: 'someone-else@demo.test', role: null });
    let registered: unknown = null;
    server.use(
      ...handlers,
      http.post('/api/auth', async ({ request }) => {
        registered = await request.json();
        return HttpResponse.json({ email: 'new@demo.test' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/registration', language: 'en' });
    await user.type(screen.getByLabelText(/^First name/), 'Nuovo');
    await user.type(screen.getByLabelText(/^Last name/), 'Utente');
    await user.type(screen.getByLabelText(/^Email/), 'new@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'A-good-password-2026');
    await user.click(screen.getByLabelText('I accept the terms & conditions'));
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Your account has been successfully registered.');
    expect(status).toHaveTextContent('An administrator must grant you access');
    expect(registered).toEqual({ firstName: 'Nuovo', lastName: 'Utente', email: 'new@demo.test', password: 'A-good-password-2026', acceptTerms: true });
    expect(calls.login).toBe(1);
    expect(calls.userByToken).toBe(0);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(sessionStore.getState().status).toBe('signed-out');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/auth/login');
  });
});

describe('forgot and reset password (S7)', () => {
  it('asks for a reset link and shows the S7 success text', async () => {
    let asked: unknown = null;
    server.use(
      http.get('/api/healthz', () => {
        document.cookie = 'XSRF-TOKEN=t; path=/';
        return HttpResponse.json({ status: 'ok' });
      }),
      http.post('/api/auth/forgot-password', async ({ request }) => {
        asked = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/forgot-password', language: 'en' });
    await user.type(screen.getByLabelText(/^Email/), 'editor@demo.test');
    await user.click(screen.getByRole('button', { name: 'Send the reset link' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Your account has been successfully reset.');
    // S7's text read as "already done": the next line says what happens next, for a known address or not.
    expect(status).toHaveTextContent('If the address is registered, we will send you a link to choose a new password: until then the current one stays valid.');
    expect(asked).toEqual({ email: 'editor@demo.test' });
  });

  it('shows an error instead of swallowing it', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    server.use(
      http.post('/api/auth/forgot-password', () =>
        HttpResponse.json({ error: { code: 'rate_limited', message: 'slow down', requestId: 'r' } }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/forgot-password' });
    await user.type(screen.getByLabelText(/^Email/), 'editor@demo.test');
    await user.click(screen.getByRole('button', { name: 'Invia il link di reimpostazione' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Troppi tentativi');
  });

  it('sets the new password from the link and sends the user to sign in with a success message', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    let body: unknown = null;
    server.use(
      http.post('/api/auth/reset-password', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, { route: '/auth/reset-password?token=abc123', language: 'en' });
    await user.type(screen.getByLabelText(/^New password/), 'A-new-password-2026');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'A-new-password-typo');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByText('The two passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Confirm the new password/));
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'A-new-password-2026');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByText('Your password has been changed. Sign in with the new one.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(body).toEqual({ token: 'abc123', password: 'A-new-password-2026' });
  });

  it('names each field by its own label ("Nuova password", "Conferma la nuova password"), the empty confirmation too', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/reset-password?token=abc123' });
    await user.click(await screen.findByRole('button', { name: 'Imposta la nuova password' }));
    expect(await screen.findByText('Nuova password è obbligatoria')).toBeInTheDocument();
    expect(screen.getByText('Conferma la nuova password è obbligatoria')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Nuova password/), 'short');
    expect(await screen.findByText('La lunghezza minima di Nuova password è 8')).toBeInTheDocument();
    expect(screen.queryByText(/di Password/)).not.toBeInTheDocument();
  });

  it("puts the API's refusal of a common password under the new password", async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    server.use(
      http.post('/api/auth/reset-password', () =>
        HttpResponse.json(
          {
            error: {
              code: 'validation',
              message: 'Nuova password è troppo comune: scegline una meno prevedibile',
              fields: [{ field: 'password', message: 'Nuova password è troppo comune: scegline una meno prevedibile' }],
              requestId: 'r',
            },
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderRoutes(routes, { route: '/auth/reset-password?token=abc123' });
    await user.type(await screen.findByLabelText(/^Nuova password/), 'password123');
    await user.type(screen.getByLabelText(/^Conferma la nuova password/), 'password123');
    await user.click(screen.getByRole('button', { name: 'Imposta la nuova password' }));
    const text = await screen.findByText('Nuova password è troppo comune: scegline una meno prevedibile');
    expect(screen.getByLabelText(/^Nuova password/)).toHaveAccessibleDescription(text.textContent ?? '');
  });

  it('says so when the reset link has no token', async () => {
    renderRoutes(routes, { route: '/auth/reset-password', language: 'en' });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This reset link is incomplete'));
  });
});

describe('address confirmation (B7)', () => {
  it('confirms the address once with the token of the link and says that an administrator approves next', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/confirm-email', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ok: true });
      }),
    );
    renderRoutes(routes, { route: '/auth/confirm-email?token=tok-1', language: 'en' });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Your address is confirmed.');
    expect(status).toHaveTextContent('An administrator must now grant you access');
    expect(bodies).toEqual([{ token: 'tok-1' }]);
  });

  it('says so when the link is used up or expired, in Italian by default', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    server.use(
      http.post('/api/auth/confirm-email', () =>
        HttpResponse.json({ error: { code: 'invalid_confirmation_token', message: 'Token non è valido', requestId: 'r' } }, { status: 400 }),
      ),
    );
    renderRoutes(routes, { route: '/auth/confirm-email?token=used-up' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Questo link di conferma non è più valido');
    expect(screen.getByRole('link', { name: "Torna all'accesso" })).toHaveAttribute('href', '/auth/login');
  });
});
