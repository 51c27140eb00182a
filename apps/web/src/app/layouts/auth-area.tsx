import { Outlet, useNavigate } from 'react-router';
import { InAppNavigation } from '../../components/ui/in-app-link.tsx';
import { AuthLayout } from './auth-layout.tsx';

/** The /auth area inside the router: the shared layout, its links moving through the router. */
export function AuthArea() {
  const navigate = useNavigate();
  return (
    <InAppNavigation value={(to) => void navigate(to)}>
      <AuthLayout>
        <Outlet />
      </AuthLayout>
    </InAppNavigation>
  );
}
