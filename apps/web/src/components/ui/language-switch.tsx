import { SegmentedControl, type SegmentedControlProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@sf/contract/app-info';
import { changeLanguage, isLanguage } from '../../lib/i18n.ts';

/** S13: it/en, remembered under `language`. Each option is named in its own language. */
export function LanguageSwitch(props: Omit<SegmentedControlProps, 'data' | 'value' | 'onChange'>) {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language.label')}
      {...props}
      value={i18n.language}
      onChange={(value) => {
        if (isLanguage(value)) void changeLanguage(value);
      }}
      data={LANGUAGES.map((language) => ({ value: language, label: t(`language.${language}`) }))}
    />
  );
}
