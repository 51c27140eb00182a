import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { BOUNDS, nameSchema } from './validation.ts';
import {
  codiceFiscaleSchema,
  partitaIvaSchema,
  phoneSchema,
  postalCodeSchema,
  provinceSchema,
  sdiCodeSchema,
  SDI_CODE_USE_PEC,
} from './italian.ts';

export const MERCHANT_STATUSES = ['active', 'suspended', 'archived'] as const;
export const merchantStatusSchema = z.enum(MERCHANT_STATUSES);
export type MerchantStatus = z.infer<typeof merchantStatusSchema>;

export const MERCHANT_CATEGORIES = [
  'bar',
  'restaurant',
  'pizzeria',
  'bakery',
  'grocery',
  'hairdresser',
  'beauty',
  'clothing',
  'shoes',
  'bookshop',
  'pharmacy',
  'gym',
  'florist',
  'optician',
  'other',
] as const;
export const merchantCategorySchema = z.enum(MERCHANT_CATEGORIES);
export type MerchantCategory = z.infer<typeof merchantCategorySchema>;

export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'tiktok', 'x', 'linkedin', 'youtube'] as const;

export const addressSchema = z.object({
  street: z.string(),
  city: z.string(),
  province: z.string(),
  postalCode: z.string(),
});

export const merchantSchema = z.object({
  id: z.uuid(),
  legalName: z.string(),
  signName: z.string().nullable(),
  vatNumber: z.string(),
  taxCode: z.string().nullable(),
  sdiCode: z.string().nullable(),
  pec: z.string().nullable(),
  category: merchantCategorySchema,
  address: addressSchema,
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  social: z.partialRecord(z.enum(SOCIAL_NETWORKS), z.string()),
  status: merchantStatusSchema,
  version: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Merchant = z.infer<typeof merchantSchema>;

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

export const createMerchantSchema = z.strictObject(merchantFields).superRefine(sdiNeedsPec);
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

export const MERCHANT_SORT_FIELDS = ['legalName', 'signName', 'city', 'province', 'category', 'status', 'createdAt', 'updatedAt'] as const;

export const listMerchantsQuerySchema = listQuerySchema({
  sort: MERCHANT_SORT_FIELDS,
  defaultSort: 'legalName',
  defaultOrder: 'asc',
  filters: {
    status: merchantStatusSchema.optional(),
    category: merchantCategorySchema.optional(),
    province: provinceSchema.optional(),
    /** Merchants taking part in this program (the dashboard's "active merchants" of a program). */
    programId: z.uuid().optional(),
  },
});
export type ListMerchantsQuery = z.infer<typeof listMerchantsQuerySchema>;
export const exportMerchantsQuerySchema = exportQuerySchema(listMerchantsQuerySchema);
export const merchantPageSchema = listPageSchema(merchantSchema);
