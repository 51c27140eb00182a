import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { AuthArea } from '../../layouts/auth-area.tsx';
import { Component as LoginRoute } from './login.tsx';
import { signInHandlers } from '../../../testing/auth-fixtures.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoutes } from '../../../testing/test-utils.tsx';
import { sessionStore } from '../../../lib/session.ts';

function renderLogin(options: { route?: string; language?: 'it' | 'en' } = {}) {
  return renderRoutes(
    [
      { path: '/auth', element: <AuthArea />, children: [{ path: 'login', element: <LoginRoute /> }] },
      { path: '/dashboard', element: <p>dashboard screen</p> },
      { path: '/news', element: <p>news screen</p> },
    ],
    { route: options.route ?? '/auth/login', language: options.language ?? 'it' },
  );
}

describe('login form', () => {
  it('shows the S12 texts per field as the user types, in Italian', async () => {
    const user = userEvent.setup();
    renderLogin();
    const email = screen.getByLabelText(/^Email/);
    await user.type(email, 'not-an-email');
    expect(await screen.findByText('Email non è valida')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.clear(email);
    expect(await screen.findByText('Email è obbligatoria')).toBeInTheDocument();
  });

  it('shows the S12 texts on submit, in English', async () => {
    const user = userEvent.setup();
    renderLogin({ language: 'en' });
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('re-words the texts on screen when the language changes', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(await screen.findByText('Password è obbligatoria')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'English' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText(/v8\.0\.34/)).toBeInTheDocument();
  });

  it('refuses a member with "The login detail is incorrect" and stores no session (S1)', async () => {
    const { handlers, calls } = signInHandlers({ email: 'member@demo.test', role: 'member' });
    server.use(...handlers);
    const user = userEvent.setup();
    renderLogin({ language: 'en' });
    await user.type(screen.getByLabelText(/^Email/), 'member@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'Demo-Password-2026');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The login detail is incorrect');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(sessionStore.getState().status).toBe('signed-out');
    await waitFor(() => expect(calls.logout).toBe(1));
  });

  it('shows the Italian text for wrong credentials', async () => {
    const { handlers } = signInHandlers({ email: 'admin@demo.test', role: 'admin' }, { password: 'right-password' });
    server.use(...handlers);
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText(/^Email/), 'admin@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('I dati di accesso non sono corretti');
  });

  it('signs an editor in, stores the session and goes back to where they were going, with the user the sign-in answered', async () => {
    const { handlers, idToken, calls } = signInHandlers({ email: 'editor@demo.test', role: 'editor', displayName: 'Elena Editor' });
    server.use(...handlers);
    const user = userEvent.setup();
    const { router } = renderLogin({ route: '/auth/login?redirect=%2Fnews%3Fstatus%3Ddraft', language: 'en' });
    await user.type(screen.getByLabelText(/^Email/), 'editor@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'Demo-Password-2026');
    const submit = screen.getByRole('button', { name: 'Sign in' });
    await user.click(submit);
    expect(await screen.findByText('news screen')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=draft');
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');
    expect(Object.keys(stored).sort()).toEqual(['authToken', 'expiresIn', 'refreshToken']);
    expect(stored.authToken).toBe(idToken);
    const state = sessionStore.getState();
    expect(state.status === 'signed-in' && state.user.role).toBe('editor');
    expect(state.status === 'signed-in' && state.user.displayName).toBe('Elena Editor');
    // The sign-in's answer carried the user: no second request between the submit and the screen (issue 32).
    expect(calls.userByToken).toBe(0);
  });

  it('disables the button while signing in (S5)', async () => {
    const { handlers } = signInHandlers({ email: 'admin@demo.test', role: 'admin' });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      ...handlers.slice(0, 1),
      ...handlers.slice(2),
      (await import('msw')).http.post('/api/auth/login', async () => {
        await gate;
        return (await import('msw')).HttpResponse.json({ error: { code: 'invalid_credentials', message: 'x', requestId: 'r' } }, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    renderLogin({ language: 'en' });
    await user.type(screen.getByLabelText(/^Email/), 'admin@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'whatever-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled());
    release();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled());
  });
});
