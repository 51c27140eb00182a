import { Outlet } from 'react-router';
import { Splash } from '../components/ui/splash.tsx';
import { useSession } from '../lib/session.ts';

/** Nothing route-specific renders until the stored session has been checked (S4). */
export function RootLayout() {
  const session = useSession();
  if (session.status === 'checking') return <Splash />;
  return <Outlet />;
}
