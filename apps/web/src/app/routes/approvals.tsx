import { ApprovalsPage } from '../../features/social-proofs/components/approvals-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';
import { customerPath } from '../screens.ts';

/** `/approvals` — Apps → Approvazioni. */
export function Component() {
  const lookups = useLoyaltyLookups();
  return <ApprovalsPage programOptions={lookups.programOptions} merchantOptions={lookups.merchantOptions} customerHref={customerPath} />;
}
