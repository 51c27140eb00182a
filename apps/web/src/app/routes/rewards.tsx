import { RewardsPage } from '../../features/rewards/components/rewards-page.tsx';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';
import { rewardPath } from '../screens.ts';

/** `/rewards` — Features → Premi; the programs come from the programs feature. */
export function Component() {
  const lookups = useLoyaltyLookups();
  const programs = lookups.programs.map((program) => ({ value: program.id, label: program.name, type: program.type }));
  return <RewardsPage programs={programs} rewardHref={rewardPath} />;
}
