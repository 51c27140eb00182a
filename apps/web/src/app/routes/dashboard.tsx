import { DashboardPage } from '../../features/dashboard/components/dashboard-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';

/** `/dashboard` — admins only (the guard sends editors to /news). */
export function Component() {
  const lookups = useLoyaltyLookups();
  return <DashboardPage programOptions={lookups.programOptions} merchantOptions={lookups.merchantOptions} />;
}
