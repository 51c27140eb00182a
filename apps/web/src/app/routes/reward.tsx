import { useParams } from 'react-router';
import { RewardDetailPage } from '../../features/rewards/components/reward-detail-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';
import { SCREENS, customerPath } from '../screens.ts';

/** `/rewards/:id` — a reward with its vouchers; merchants and programs come from their features. */
export function Component() {
  const { id = '' } = useParams();
  const lookups = useLoyaltyLookups();
  const programs = lookups.programs.map((program) => ({ value: program.id, label: program.name, type: program.type }));
  return <RewardDetailPage key={id} rewardId={id} listHref={SCREENS.rewards.path} programs={programs} merchantOptions={lookups.merchantOptions} customerHref={customerPath} />;
}
