import { useParams } from 'react-router';
import { RewardDetailPage } from '../../features/rewards/components/reward-detail-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';
import { SCREENS, customerPath } from '../screens.ts';

/** `/rewards/:id` — a reward with its vouchers; merchants and programs come from their features. */
export function Component() {
  const { id = '' } = useParams();
  const lookups = useLoyaltyLookups();
  const programs = lookups.programs.map((program) => ({ value: program.id, label: program.name, type: program.type }));
  const merchantsOfProgram = (programId: string) => {
    const ids = new Set(lookups.programs.find((program) => program.id === programId)?.merchantIds ?? []);
    return lookups.activeMerchantOptions.filter((option) => ids.has(option.value));
  };
  return <RewardDetailPage key={id} rewardId={id} listHref={SCREENS.rewards.path} programs={programs} merchantsOfProgram={merchantsOfProgram} customerHref={customerPath} />;
}
