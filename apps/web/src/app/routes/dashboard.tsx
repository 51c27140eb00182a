import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DashboardPage } from '../../features/dashboard/components/dashboard-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';

/**
 * `/dashboard` — admins only (the guard sends editors to /news). The programs and merchants (every page
 * of them) name the filters' choices: asked for when a filter already names one or when a filter is
 * first opened, not with the figures. On landing they were two of the screen's four requests, and the
 * server answered them while the first click on the menu waited (issue 32).
 */
export function Component() {
  const [search] = useSearchParams();
  const [isLookupWanted, setIsLookupWanted] = useState(() => search.has('programId') || search.has('merchantId'));
  const lookups = useLoyaltyLookups({ isEnabled: isLookupWanted });
  return <DashboardPage programOptions={lookups.programOptions} merchantOptions={lookups.merchantOptions} onOptionsWanted={() => setIsLookupWanted(true)} />;
}
