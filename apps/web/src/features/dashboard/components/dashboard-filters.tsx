import { Group, SegmentedControl, Select } from '@mantine/core';
import { DateField } from '../../../components/ui/date-fields.tsx';
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

/** Period (presets or a custom range), program and merchant: every change goes to the URL. */
export function DashboardFilterBar({ filters, onChange, programOptions, merchantOptions, onOptionsWanted, today }: Props) {
  const { t } = useTranslation('dashboard');
  const choices: PeriodChoice[] = [...PERIOD_PRESETS, 'custom'];
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" role="group" aria-label={t('filters.label')}>
      <SegmentedControl
        aria-label={t('filters.period')}
        value={filters.period}
        data={choices.map((value) => ({ value, label: t(`filters.presets.${value}`) }))}
        onChange={(value) => {
          const period = value as PeriodChoice;
          onChange(period === 'custom' ? { ...filters, period } : { ...filters, period, ...presetRange(period, today) });
        }}
      />
      {filters.period === 'custom' && (
        <>
          <DateField
            label={t('filters.from')}
            value={filters.from}
            maxDate={filters.to}
            onChange={(from) => {
              if (from && from <= filters.to) onChange({ ...filters, period: 'custom', from });
            }}
            w={160}
          />
          <DateField
            label={t('filters.to')}
            value={filters.to}
            minDate={filters.from}
            onChange={(to) => {
              if (to && to >= filters.from) onChange({ ...filters, period: 'custom', to });
            }}
            w={160}
          />
        </>
      )}
      <Select
        label={t('filters.program')}
        data={[{ value: 'all', label: t('filters.allPrograms') }, ...programOptions]}
        value={filters.programId ?? 'all'}
        onChange={(value) => onChange({ ...filters, programId: value && value !== 'all' ? value : undefined })}
        allowDeselect={false}
        onFocus={onOptionsWanted}
        onDropdownOpen={onOptionsWanted}
        w={220}
      />
      <Select
        label={t('filters.merchant')}
        data={[{ value: 'all', label: t('filters.allMerchants') }, ...merchantOptions]}
        value={filters.merchantId ?? 'all'}
        onChange={(value) => onChange({ ...filters, merchantId: value && value !== 'all' ? value : undefined })}
        allowDeselect={false}
        searchable
        // Focus opens a searchable Select's dropdown: onDropdownOpen asks for the options (its onFocus is the
        // theme's, which selects the label for typing over it).
        onDropdownOpen={onOptionsWanted}
        w={220}
      />
    </Group>
  );
}
