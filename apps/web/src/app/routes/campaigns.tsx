import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { RenderRichText } from '../../features/campaigns/components/campaign-editor.tsx';
import { CampaignsPage } from '../../features/campaigns/components/campaigns-page.tsx';
import { useProgramOptions } from '../../features/programs/api/get-programs.ts';
import { useLoyaltyLookups } from '../loyalty-lookups.tsx';

// The news editor's rich text (tiptap), so that a campaign body allows exactly what a post's does;
// loaded when the editor first opens, like the news drawer's form.
const RichTextField = lazy(async () => {
  const [module] = await Promise.all([import('../../features/news/components/rich-text-field.tsx'), import('@mantine/tiptap/styles.css')]);
  return { default: module.RichTextField };
});

const renderRichText: RenderRichText = ({ label, value, onChange, error, focusRef }) => (
  <Suspense fallback={<Skeleton height={220} />}>
    <RichTextField label={label} value={value} onChange={onChange} error={error} focusRef={focusRef} />
  </Suspense>
);

/** `/campaigns` — App → Campagne (admins): the programs (with their tiers) and merchants for the audience, the news editor for the body. */
export function Component() {
  const lookups = useLoyaltyLookups();
  const programs = useProgramOptions();
  const programOptions = programs.map(({ value, label, program }) => ({ value, label, tiers: program.tiers.map((tier) => tier.name) }));
  return <CampaignsPage programOptions={programOptions} merchantOptions={lookups.choosableMerchantOptions} renderRichText={renderRichText} />;
}
