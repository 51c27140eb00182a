import { z } from 'zod';
import { BOUNDS, nameSchema, ruleAcrossFields } from './validation.ts';
import {
  codiceFiscaleSchema,
  partitaIvaSchema,
  phoneSchema,
  postalCodeSchema,
  provinceSchema,
  sdiCodeSchema,
  SDI_CODE_USE_PEC,
} from './italian.ts';
import { SOCIAL_NETWORKS, merchantCategorySchema, merchantStatusSchema } from './merchants-list.ts';

export * from './merchants-list.ts';

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (schema: z.ZodType<string | null, string>) => schema.nullable().optional();
const url = z.url({ protocol: /^https?$/ }).max(BOUNDS.urlMax);

export const merchantAddressInputSchema = z.strictObject({
  street: text(200),
  city: text(100),
  province: provinceSchema,
  postalCode: postalCodeSchema,
});

const merchantFields = {
  legalName: nameSchema(200),
  signName: optionalText(nameSchema(200)),
  vatNumber: partitaIvaSchema,
  taxCode: optionalText(codiceFiscaleSchema),
  sdiCode: optionalText(sdiCodeSchema),
  pec: optionalText(z.email().max(BOUNDS.emailMax)),
  category: merchantCategorySchema,
  address: merchantAddressInputSchema,
  phone: optionalText(phoneSchema),
  email: optionalText(z.email().max(BOUNDS.emailMax)),
  website: optionalText(url),
  social: z.partialRecord(z.enum(SOCIAL_NETWORKS), url).optional(),
};

/** `0000000` means "deliver the invoices to my PEC": it needs one. */
function sdiNeedsPec(value: { sdiCode?: string | null | undefined; pec?: string | null | undefined }, context: z.RefinementCtx) {
  if (value.sdiCode === SDI_CODE_USE_PEC && !value.pec) {
    context.addIssue({ code: 'custom', path: ['pec'], params: { messageKey: 'required' } });
  }
}

export const createMerchantSchema = z.strictObject(merchantFields).check(ruleAcrossFields(sdiNeedsPec));
export type CreateMerchant = z.infer<typeof createMerchantSchema>;

/**
 * A change: any field, and `status` (suspend / reactivate / archive), with the `version` read
 * (409 `version_conflict` when someone changed the merchant meanwhile). The SDI/PEC rule is checked
 * on the merged result by the API.
 */
export const updateMerchantSchema = z.strictObject({
  ...z.strictObject(merchantFields).partial().shape,
  status: merchantStatusSchema.optional(),
  version: z.number().int().min(1),
});
export type UpdateMerchant = z.infer<typeof updateMerchantSchema>;
