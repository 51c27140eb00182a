import { LANGUAGES } from '@sf/contract/app-info';
import { isLanguage, setLanguage, useTexts } from '../../lib/texts.ts';
import classes from './language-switch.module.css';

/**
 * S13: it/en, remembered under `language`. Each option is named in its own language. Native radio
 * buttons (keyboard and screen-reader behaviour for free) styled as a segmented toggle: Mantine's
 * SegmentedControl cost the sign-in page 3.5 kB gzip of its 150 kB budget (docs/decisions/007).
 */
export function LanguageSwitch() {
  const { t, language: current } = useTexts();
  return (
    <fieldset className={classes.root}>
      <legend className={classes.legend}>{t('language.label')}</legend>
      {LANGUAGES.map((language) => (
        <label key={language} className={classes.option}>
          <input
            type="radio"
            name="language"
            value={language}
            className={classes.input}
            checked={current === language}
            onChange={(event) => {
              if (isLanguage(event.currentTarget.value)) setLanguage(event.currentTarget.value);
            }}
          />
          <span className={classes.label}>{t(`language.${language}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}
