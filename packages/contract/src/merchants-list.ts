import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { provinceSchema } from './provinces.ts';

/**
 * The merchants list's side of the contract: a merchant as the API answers it, and the list's query.
 * Apart from `merchants.ts` (which re-exports all of it) so that the screens that list or name
 * merchants (the dashboard, Movimenti, Premi…) do not load the write schemas and the phone rules'
 * metadata (~120 KB) with them, as `customers-list.ts` does for Clienti (decision 010).
 */

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
