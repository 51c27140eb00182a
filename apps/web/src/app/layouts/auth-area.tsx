import { Outlet } from 'react-router';
import { AuthLayout } from './auth-layout.tsx';
import { RouterNavigation } from './router-navigation.tsx';

/** The /auth area inside the router: the shared layout, its links moving through the router. */
export function AuthArea() {
  return (
    <RouterNavigation>
      <AuthLayout>
        <Outlet />
      </AuthLayout>
    </RouterNavigation>
  );
}
