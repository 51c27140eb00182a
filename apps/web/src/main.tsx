import './app/first-screen-styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/provider.tsx';
import { createAppRouter } from './app/router.tsx';
import { restoreSession } from './lib/user-by-token.ts';

void restoreSession();
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
