import { z } from 'zod';

// Apart from italian.ts (which re-exports them) so that a list filtering by province does not load the
// phone rules' metadata (~120 KB) with it: the merchants' list query is read by every screen that names
// merchants (decision 010).

/**
 * Sigle of the Italian provinces and metropolitan cities (ISTAT list, with Sud Sardegna `SU`), plus
 * the four Sardinian provinces re-established in 2025 (`CI`, `OG`, `OT`, `VS`), whose sigle are again
 * written in addresses.
 */
export const PROVINCES = [
  'AG', 'AL', 'AN', 'AO', 'AP', 'AQ', 'AR', 'AT', 'AV', 'BA', 'BG', 'BI', 'BL', 'BN', 'BO', 'BR', 'BS', 'BT',
  'BZ', 'CA', 'CB', 'CE', 'CH', 'CI', 'CL', 'CN', 'CO', 'CR', 'CS', 'CT', 'CZ', 'EN', 'FC', 'FE', 'FG', 'FI',
  'FM', 'FR', 'GE', 'GO', 'GR', 'IM', 'IS', 'KR', 'LC', 'LE', 'LI', 'LO', 'LT', 'LU', 'MB', 'MC', 'ME', 'MI',
  'MN', 'MO', 'MS', 'MT', 'NA', 'NO', 'NU', 'OG', 'OR', 'OT', 'PA', 'PC', 'PD', 'PE', 'PG', 'PI', 'PN', 'PO',
  'PR', 'PT', 'PU', 'PV', 'PZ', 'RA', 'RC', 'RE', 'RG', 'RI', 'RM', 'RN', 'RO', 'SA', 'SI', 'SO', 'SP', 'SR',
  'SS', 'SU', 'SV', 'TA', 'TE', 'TN', 'TO', 'TP', 'TR', 'TS', 'TV', 'UD', 'VA', 'VB', 'VC', 'VE', 'VI', 'VR',
  'VS', 'VT', 'VV',
] as const;
export type Province = (typeof PROVINCES)[number];

export function isProvince(value: string): value is Province {
  return (PROVINCES as readonly string[]).includes(value.toUpperCase());
}

/** A province's sigla, written in any case. */
export const provinceSchema = z
  .string()
  .transform((value) => value.trim().toUpperCase())
  .refine(isProvince, { params: { messageKey: 'invalid' } }) as unknown as z.ZodType<Province, string>;
