import { actorLabel } from '@sf/contract/audit';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An audit entry's author, action and entity in words (`locales/<lang>/changes.json`), for the dashboard's
 * Ultime modifiche, the Audit screen and a post's history alike: the system as "Sistema"; the action's own
 * text when it has one (`news.publish` → "Pubblicato"), else its verb's (`ledger.earn` → "Accredito",
 * `create` → "Creato"); the entity's name (`ledger_entry` → "movimento"). Never the stored name.
 */
export function useDescribeChange() {
  const { t, i18n } = useTranslation('changes');
  // The same object while the language stays: a list's columns built from it are not rebuilt at each render.
  return useMemo(() => ({
    actor(actorEmail: string | null): string {
      return actorLabel(actorEmail, t('system'));
    },
    /**
     * With the entity's type the verb agrees with it: "Creata" for a "prova social", as `genders` says
     * (i18next's context: `verbs.create_female`, else `verbs.create`). Verbs read before the entity's
     * name too ("Generated codes for" reward), as in Ultime modifiche and beside the Audit's Entità.
     */
    action(code: string, entityType?: string): string {
      if (i18n.exists(`changes:actions.${code}`) && typeof t(`actions.${code}`, { returnObjects: true }) === 'string') return t(`actions.${code}`);
      const verb = code.split('.').at(-1) ?? code;
      if (!i18n.exists(`changes:verbs.${verb}`)) return t('otherAction');
      const gender = entityType && i18n.exists(`changes:genders.${entityType}`) ? t(`genders.${entityType}`) : undefined;
      return t(`verbs.${verb}`, gender ? { context: gender } : {});
    },
    entity(type: string): string {
      return i18n.exists(`changes:entities.${type}`) ? t(`entities.${type}`) : t('otherEntity');
    },
  }), [t, i18n]);
}
