import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { FirstScreen } from './first-screen.tsx';
import { changeLanguage } from '../lib/i18n.ts';
import { sessionStore } from '../lib/session.ts';
import { signInHandlers } from '../testing/auth-fixtures.ts';
import { server } from '../testing/msw-server.ts';

// The sign-in page of a first visit, before the router and the rest of the app have loaded (decision 010).
async function renderFirstScreen(options: { search?: string; language?: 'it' | 'en' } = {}) {
  await changeLanguage(options.language ?? 'it');
  sessionStore.signOut();
  window.history.replaceState(null, '', `/auth/login${options.search ?? ''}`);
  const enterApp = vi.fn();
  const warmUp = vi.fn();
  render(<FirstScreen enterApp={enterApp} warmUp={warmUp} />);
  return { enterApp, warmUp, user: userEvent.setup() };
}

describe('first screen: the sign-in page without the router', () => {
  it('shows the form with its layout, version and language switch, and switches language', async () => {
    const { user } = await renderFirstScreen();
    expect(screen.getByRole('heading', { name: 'Accedi' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Accedi · Social Fidelity'));
    expect(screen.getByText(/v8\.0\.34/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(await screen.findByText('Password è obbligatoria')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'English' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');
    // The tab names the page in the chosen language too (WCAG 2.4.2).
    await waitFor(() => expect(document.title).toBe('Sign in · Social Fidelity'));
  });

  it('starts loading the app when a field is first focused', async () => {
    const { user, warmUp } = await renderFirstScreen({ search: '?redirect=%2Fcustomers' });
    expect(warmUp).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText(/^Email/));
    expect(warmUp).toHaveBeenCalledWith('/customers');
  });

  it('opens the forgot-password and registration pages in the app', async () => {
    const { user, enterApp } = await renderFirstScreen();
    const forgot = screen.getByRole('link', { name: 'Password dimenticata?' });
    expect(forgot).toHaveAttribute('href', '/auth/forgot-password');
    await user.click(forgot);
    expect(enterApp).toHaveBeenCalledWith('/auth/forgot-password');
    await user.click(screen.getByRole('link', { name: 'Registrati' }));
    expect(enterApp).toHaveBeenLastCalledWith('/auth/registration');
  });

  it('signs an admin in and enters the app where they were going', async () => {
    const { handlers } = signInHandlers({ email: 'admin@demo.test', role: 'admin' });
    server.use(...handlers);
    const { user, enterApp } = await renderFirstScreen({ search: '?redirect=%2Fcustomers%3Fpage%3D2' });
    await user.type(screen.getByLabelText(/^Email/), 'admin@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'Demo-Password-2026');
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    await waitFor(() => expect(enterApp).toHaveBeenCalledWith('/customers?page=2', { replace: true }));
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();
    expect(sessionStore.getState().status).toBe('signed-in');
  });

  it('shows wrong credentials and a rate limit in the chosen language', async () => {
    const { handlers } = signInHandlers({ email: 'admin@demo.test', role: 'admin' }, { password: 'right-password' });
    server.use(...handlers);
    const { user, enterApp } = await renderFirstScreen({ language: 'en' });
    await user.type(screen.getByLabelText(/^Email/), 'admin@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The login detail is incorrect');
    server.use(http.post('/api/auth/login', () => HttpResponse.json({ error: { code: 'rate_limited', message: 'slow down', requestId: 'r' } }, { status: 429 })));
    await user.click(screen.getByRole('radio', { name: 'Italiano' }));
    await user.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Troppi tentativi. Attendi un momento e riprova.');
    expect(enterApp).not.toHaveBeenCalled();
  });
});
