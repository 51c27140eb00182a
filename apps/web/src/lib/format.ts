import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@sf/contract/app-info';
import { createFormatters, type Formatters } from './formatters.ts';
import { isLanguage } from './i18n.ts';
import { useCurrentUser } from './session.ts';

export { browserTimeZone, createFormatters, LOCALES, type Formatters } from './formatters.ts';

export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const user = useCurrentUser();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'it';
  const timeZone = user?.timeZone;
  return useMemo(() => createFormatters(language, timeZone), [language, timeZone]);
}
