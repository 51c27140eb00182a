import { z } from 'zod';
import { pageSchema, pagingQuerySchema } from './common.ts';
import { ACCOUNT_ROLES } from './roles.ts';
import { BOUNDS } from './validation.ts';

export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;

/** An account as the staff screen lists it (B7): no profile, no secrets. */
export const staffAccountSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(ACCOUNT_ROLES).nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  createdAt: z.iso.datetime({ offset: true }),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;

export const listStaffQuerySchema = pagingQuerySchema.extend({
  /** Matches e-mail or name, case-insensitive. */
  q: z.string().trim().max(BOUNDS.searchMax).optional(),
  /** `none` lists the accounts waiting for a role (self-registered, B7). */
  role: z.enum([...ACCOUNT_ROLES, 'none']).optional(),
  status: z.enum(ACCOUNT_STATUSES).optional(),
});
export type ListStaffQuery = z.infer<typeof listStaffQuerySchema>;
export const staffPageSchema = pageSchema(staffAccountSchema);
/** The export takes the list's filters, without paging. */
export const exportStaffQuerySchema = listStaffQuerySchema.omit({ page: true, pageSize: true });

export const staffIdParamSchema = z.object({ id: z.uuid() });

/** An admin changes another account's role (null takes it away) or status. */
export const updateStaffRequestSchema = z
  .strictObject({
    role: z.enum(ACCOUNT_ROLES).nullable().optional(),
    status: z.enum(ACCOUNT_STATUSES).optional(),
  })
  .refine((body) => body.role !== undefined || body.status !== undefined, { message: 'Nothing to change', path: ['role'] });
export type UpdateStaffRequest = z.infer<typeof updateStaffRequestSchema>;
