import { StrictMode, type ReactElement, type ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { Language } from '@sf/contract/app-info';
import type { StaffUser } from '@sf/contract/auth';
import { AppDataProviders } from '../app/data-providers.tsx';
import { AppProviders } from '../app/provider.tsx';
import { changeLanguage } from '../lib/i18n.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { sessionStore, writeStoredSession } from '../lib/session.ts';

/** A complete demo staff user; pass overrides for what a test cares about. */
export function testUser(overrides: Partial<StaffUser> = {}): StaffUser {
  return {
    uid: 'u-admin',
    email: 'admin@demo.test',
    displayName: 'Ada Admin',
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
    fullname: 'Ada Admin',
    occupation: 'Manager',
    companyName: 'Demo srl',
    phone: '+39 02 1234567',
    language: 'it',
    timeZone: 'Europe/Rome',
    website: '',
    pic: '',
    communication: { email: true, sms: false, phone: false },
    address: { addressLine: '', city: 'Milano', state: 'MI', postCode: '20121' },
    socialNetworks: { linkedIn: '', facebook: '', twitter: '', instagram: '' },
    ...overrides,
  };
}

/** A JWT-shaped token (unsigned) carrying these claims — enough for the client, which only reads them. */
export function fakeIdToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'EdDSA', typ: 'JWT' })}.${encode({ iat: 0, exp: 9_999_999_999, ...claims })}.signature`;
}

export type RenderOptions = {
  /** Where the memory router starts, e.g. '/news?post=new'. */
  route?: string;
  /** Signs this user in (stored session + current user); without it nobody is signed in. */
  user?: Partial<StaffUser> | StaffUser;
  language?: Language;
  /** Leaves the session store as the test set it (e.g. mid start-up check) instead of signing in/out. */
  isSessionKept?: boolean;
  /** Inside StrictMode, as the app renders (app.tsx): a newly mounted component's effects run twice. */
  isStrict?: boolean;
};

function prepare(options: RenderOptions): void {
  void changeLanguage(options.language ?? 'it');
  if (options.isSessionKept) return;
  if (options.user) {
    const user = testUser(options.user);
    const tokens = { authToken: fakeIdToken({ sub: user.uid, role: user.role, email: user.email, name: user.displayName }), refreshToken: 'refresh-1' };
    writeStoredSession(tokens);
    sessionStore.signIn(user, tokens, { isNew: false });
  } else {
    sessionStore.signOut();
  }
}

/**
 * The app's QueryClient, with its retry rule (a network failure or a 5xx is tried twice more), but
 * without the wait between tries: TanStack's default of 1 s then 2 s made each test of a failed read
 * wait 3 s for nothing.
 */
function createTestQueryClient() {
  const client = createQueryClient();
  client.setDefaultOptions({ ...client.getDefaultOptions(), queries: { ...client.getDefaultOptions().queries, retryDelay: 0 } });
  return client;
}

function Providers({ children }: { children: ReactNode }) {
  return (
    <AppProviders env="test">
      <AppDataProviders queryClient={createTestQueryClient()}>{children}</AppDataProviders>
    </AppProviders>
  );
}

/**
 * Renders `ui` inside the app's providers (Mantine, i18n, toasts, modals, a fresh QueryClient) at `route` of a memory
 * router, optionally with a signed-in user.
 */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  prepare(options);
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [options.route ?? '/'] });
  const result = render(<RouterProvider router={router} />, { wrapper: Providers });
  return { ...result, router };
}

/** Renders a route tree (e.g. the app's own `appRoutes`) at `route`. */
export function renderRoutes(routes: RouteObject[], options: RenderOptions = {}): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  prepare(options);
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? '/'] });
  const provider = <RouterProvider router={router} />;
  // StrictMode as app.tsx places it, at the root: nested under a wrapper, React runs effects once.
  const result = options.isStrict
    ? render(
        <StrictMode>
          <Providers>{provider}</Providers>
        </StrictMode>,
      )
    : render(provider, { wrapper: Providers });
  return { ...result, router };
}
