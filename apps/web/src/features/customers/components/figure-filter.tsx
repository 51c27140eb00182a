import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';

type FigureParams = { joinedFrom?: string; joinedTo?: string; activeFrom?: string; activeTo?: string; erased?: boolean };

/**
 * The filters a dashboard figure opens the list with (registered or active in a period, erased ones
 * left out: decision 032). They have no field of their own in the filter row, so they are said in
 * words, with a way to take them off: a list never filters without showing it.
 */
export function FigureFilter({ params, update }: { params: FigureParams; update: (patch: Partial<FigureParams>) => void }) {
  const { t } = useTranslation('customers');
  const format = useFormatters();
  const day = (iso: string | undefined) => (iso ? format.date(iso) : '');
  const parts = [
    params.activeFrom || params.activeTo ? t('figureFilter.active', { from: day(params.activeFrom), to: day(params.activeTo) }) : null,
    params.joinedFrom ? t('figureFilter.joinedBetween', { from: day(params.joinedFrom), to: day(params.joinedTo) }) : null,
    !params.joinedFrom && params.joinedTo ? t('figureFilter.joinedBy', { to: day(params.joinedTo) }) : null,
    params.erased === false ? t('figureFilter.notErased') : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  return (
    <Group gap="xs" data-testid="figure-filter">
      <Text size="sm">{parts.join(' · ')}</Text>
      <Button
        size="compact-sm"
        variant="subtle"
        onClick={() => update({ joinedFrom: undefined, joinedTo: undefined, activeFrom: undefined, activeTo: undefined, erased: undefined })}
      >
        {t('figureFilter.clear')}
      </Button>
    </Group>
  );
}
