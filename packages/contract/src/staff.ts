import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { ACCOUNT_ROLES } from './roles.ts';

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

/**
 * `waiting` (the default) puts the accounts waiting for approval first — address confirmed, active, no
 * role yet (B7) — then everyone by e-mail. `q` matches e-mail or name, case-insensitive.
 */
export const listStaffQuerySchema = listQuerySchema({
  sort: ['waiting', 'email', 'displayName', 'role', 'status', 'createdAt'] as const,
  defaultSort: 'waiting',
  filters: {
    /** `none` lists the accounts without a role (self-registered, B7). */
    role: z.enum([...ACCOUNT_ROLES, 'none']).optional(),
    status: z.enum(ACCOUNT_STATUSES).optional(),
  },
});
export type ListStaffQuery = z.infer<typeof listStaffQuerySchema>;
export const staffPageSchema = listPageSchema(staffAccountSchema);
/** The export takes the list's filters and sort, without paging. */
export const exportStaffQuerySchema = exportQuerySchema(listStaffQuerySchema);

export const staffIdParamSchema = z.object({ id: z.uuid() });

/** An admin changes another account's role (null takes it away) or status. */
export const updateStaffRequestSchema = z
  .strictObject({
    role: z.enum(ACCOUNT_ROLES).nullable().optional(),
    status: z.enum(ACCOUNT_STATUSES).optional(),
  })
  .refine((body) => body.role !== undefined || body.status !== undefined, { message: 'Nothing to change', path: ['role'] });
export type UpdateStaffRequest = z.infer<typeof updateStaffRequestSchema>;
