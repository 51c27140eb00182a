import { createBrowserRouter, Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { HomeRedirect, RequireAuth, UnknownPath } from './guards.tsx';
import { AuthArea } from './layouts/auth-area.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { Component as LoginRoute } from './routes/auth/login.tsx';
import { loadCatalogues } from '../lib/i18n.ts';
import { prefetchScreenList } from './prefetch-routes.ts';
import { screenHandle } from './screens.ts';

/** A list screen's page is asked for while its code loads, not after (prefetch-routes.ts). */
async function listLoader({ request }: LoaderFunctionArgs): Promise<null> {
  await prefetchScreenList(new URL(request.url));
  return null;
}

/**
 * S8 route map. Only the sign-in page and what it needs are in the first bundle; every other screen
 * (the app shell, news with its editor, the dashboard, the other auth forms) is a lazy route module.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        path: 'auth',
        element: <AuthArea />,
        children: [
          { index: true, element: <Navigate to="/auth/login" replace /> },
          { path: 'login', Component: LoginRoute },
          { path: 'registration', lazy: () => import('./routes/auth/registration.tsx') },
          { path: 'forgot-password', lazy: () => import('./routes/auth/forgot-password.tsx') },
          { path: 'reset-password', lazy: () => import('./routes/auth/reset-password.tsx') },
          { path: 'confirm-email', lazy: () => import('./routes/auth/confirm-email.tsx') },
          {
            path: 'invitation',
            // Its texts (and the API's error texts) come with it, not with the sign-in page.
            lazy: async () => {
              const [route] = await Promise.all([import('./routes/auth/invitation.tsx'), loadCatalogues(['invitation'])]);
              return route;
            },
          },
        ],
      },
      {
        path: 'error',
        children: [
          { path: '404', lazy: () => import('./routes/not-found.tsx') },
          { path: '*', element: <Navigate to="/error/404" replace /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            // The signed-in area's texts come with its code, not with the sign-in page.
            lazy: async () => {
              const [layout] = await Promise.all([import('./layouts/main-layout.tsx'), loadCatalogues()]);
              return layout;
            },
            children: [
              {
                // A screen that fails (its code could not be downloaded) shows under the menu, not instead of it.
                errorElement: <RouteError isInShell />,
                children: [
                  { index: true, element: <HomeRedirect /> },
                  { path: 'dashboard', handle: screenHandle('dashboard'), lazy: () => import('./routes/dashboard.tsx') },
                  { path: 'news', loader: listLoader, handle: screenHandle('news'), lazy: () => import('./routes/news.tsx') },
                  { path: 'customers', loader: listLoader, handle: screenHandle('customers'), lazy: () => import('./routes/customers.tsx') },
                  { path: 'customers/:id', handle: screenHandle('customers'), lazy: () => import('./routes/customer.tsx') },
                  { path: 'merchants', loader: listLoader, handle: screenHandle('merchants'), lazy: () => import('./routes/merchants.tsx') },
                  { path: 'api-keys', loader: listLoader, handle: screenHandle('apiKeys'), lazy: () => import('./routes/api-keys.tsx') },
                  { path: 'programs', loader: listLoader, handle: screenHandle('programs'), lazy: () => import('./routes/programs.tsx') },
                  { path: 'ledger', loader: listLoader, handle: screenHandle('ledger'), lazy: () => import('./routes/ledger.tsx') },
                  { path: 'staff', loader: listLoader, handle: screenHandle('staff'), lazy: () => import('./routes/staff.tsx') },
                  { path: 'rewards', loader: listLoader, handle: screenHandle('rewards'), lazy: () => import('./routes/rewards.tsx') },
                  { path: 'rewards/:id', handle: screenHandle('rewards'), lazy: () => import('./routes/reward.tsx') },
                  { path: 'approvals', loader: listLoader, handle: screenHandle('approvals'), lazy: () => import('./routes/approvals.tsx') },
                  { path: 'privacy-requests', loader: listLoader, handle: screenHandle('privacyRequests'), lazy: () => import('./routes/privacy-requests.tsx') },
                  { path: 'campaigns', loader: listLoader, handle: screenHandle('campaigns'), lazy: () => import('./routes/campaigns.tsx') },
                  { path: 'imports', loader: listLoader, handle: screenHandle('imports'), lazy: () => import('./routes/imports.tsx') },
                  { path: 'audit', loader: listLoader, handle: screenHandle('audit'), lazy: () => import('./routes/audit.tsx') },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <UnknownPath /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
