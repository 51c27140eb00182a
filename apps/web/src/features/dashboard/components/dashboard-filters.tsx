import { SegmentedControl, Select } from '@mantine/core';
import { DateField } from '../../../components/ui/date-fields.tsx';
import { FilterRow } from '../../../components/ui/filter-row.tsx';
import { useState } from 'react';
import { drawSelectOpening } from '../../../lib/select-opening.ts';
import { useTranslation } from 'react-i18next';
import { PERIOD_PRESETS, presetRange, type DashboardFilters, type PeriodChoice } from '../lib/period.ts';

export type Option = { value: string; label: string };

type Props = {
  filters: DashboardFilters;
  onChange: (filters: DashboardFilters) => void;
  programOptions: Option[];
  merchantOptions: Option[];
  onOptionsWanted?: (() => void) | undefined;
  today: string;
};

/**
 * A custom period's two days. The URL holds only a period whose end is not before its start; a day
 * that would invert it stays in the field as typed (here, not in the URL), "Al" says why, and the
 * figures stay those of the last period: the field used to drop such a day without a word.
 */
function CustomPeriod({ filters, onChange }: Pick<Props, 'filters' | 'onChange'>) {
  const { t } = useTranslation('dashboard');
  // What was typed over the period in the URL; another period there (Back, a link) replaces it.
  const [typed, setTyped] = useState<{ over: string; from: string; to: string } | null>(null);
  const stored = `${filters.from}|${filters.to}`;
  const shown = typed?.over === stored ? typed : { from: filters.from, to: filters.to };
  const choose = (patch: Partial<{ from: string; to: string }>) => {
    const next = { from: shown.from, to: shown.to, ...patch };
    if (next.from && next.to && next.from <= next.to) {
      setTyped(null);
      onChange({ ...filters, period: 'custom', ...next });
    } else {
      setTyped({ over: stored, ...next });
    }
  };
  return (
    <>
      <DateField label={t('filters.from')} value={shown.from} maxDate={shown.to} onChange={(from) => choose({ from })} w={160} />
      <DateField label={t('filters.to')} value={shown.to} minDate={shown.from} minDateName={t('filters.from')} onChange={(to) => choose({ to })} w={160} />
    </>
  );
}

/** Period (presets or a custom range), program and merchant: every change goes to the URL. */
export function DashboardFilterBar({ filters, onChange, programOptions, merchantOptions, onOptionsWanted, today }: Props) {
  const { t } = useTranslation('dashboard');
  const choices: PeriodChoice[] = [...PERIOD_PRESETS, 'custom'];
  // Their own onDropdownOpen replaces the theme's: it still draws the opening at once, for ArrowDown.
  const openAndAsk = () => {
    onOptionsWanted?.();
    drawSelectOpening();
  };
  return (
    <FilterRow role="group" aria-label={t('filters.label')}>
      <SegmentedControl
        aria-label={t('filters.period')}
        value={filters.period}
        data={choices.map((value) => ({ value, label: t(`filters.presets.${value}`) }))}
        onChange={(value) => {
          const period = value as PeriodChoice;
          onChange(period === 'custom' ? { ...filters, period } : { ...filters, period, ...presetRange(period, today) });
        }}
      />
      {filters.period === 'custom' && <CustomPeriod filters={filters} onChange={onChange} />}
      <Select
        label={t('filters.program')}
        data={[{ value: 'all', label: t('filters.allPrograms') }, ...programOptions]}
        value={filters.programId ?? 'all'}
        onChange={(value) => onChange({ ...filters, programId: value && value !== 'all' ? value : undefined })}
        allowDeselect={false}
        onFocus={onOptionsWanted}
        onDropdownOpen={openAndAsk}
        w={220}
      />
      <Select
        label={t('filters.merchant')}
        data={[{ value: 'all', label: t('filters.allMerchants') }, ...merchantOptions]}
        value={filters.merchantId ?? 'all'}
        onChange={(value) => onChange({ ...filters, merchantId: value && value !== 'all' ? value : undefined })}
        allowDeselect={false}
        searchable
        // Opening asks for the options (its onFocus is the theme's, which selects the label for typing over it).
        onDropdownOpen={openAndAsk}
        w={220}
      />
    </FilterRow>
  );
}
