import { DashboardPage } from '../../features/dashboard/components/dashboard-page.tsx';

/** `/dashboard` — admins only (the guard sends editors to /news). */
export function Component() {
  return <DashboardPage />;
}
