import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { STAFF_ROLES } from './roles.ts';
import { emailSchema, nameSchema, passwordSchema } from './validation.ts';

/** How long an invitation link stays valid (issue 11: 7 days). A resend starts the 7 days again. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

/** `pending` until used or revoked; `expired` is a pending one past its date (computed, not stored). */
export const INVITATION_STATUSES = ['pending', 'expired'] as const;

/** An invitation as the Staff screen lists it: never its token. */
export const staffInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(STAFF_ROLES),
  status: z.enum(INVITATION_STATUSES),
  invitedBy: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  sentAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type StaffInvitation = z.infer<typeof staffInvitationSchema>;

/** The open invitations (neither used nor revoked), newest first. */
export const listInvitationsQuerySchema = listQuerySchema({
  sort: ['sentAt', 'email', 'expiresAt'] as const,
  defaultSort: 'sentAt',
  defaultOrder: 'desc',
});
export type ListInvitationsQuery = z.infer<typeof listInvitationsQuerySchema>;
export const exportInvitationsQuerySchema = exportQuerySchema(listInvitationsQuerySchema);
export const invitationPageSchema = listPageSchema(staffInvitationSchema);

/** An admin invites someone by e-mail with a staff role. */
export const createInvitationRequestSchema = z.strictObject({
  email: emailSchema,
  displayName: nameSchema(),
  role: z.enum(STAFF_ROLES),
});
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;

/** The invitee's page reads what the link is for before the form (public, rate limited). */
export const invitationTokenRequestSchema = z.strictObject({ token: z.string().min(1).max(512) });
export const invitationDetailsSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  role: z.enum(STAFF_ROLES),
});
export type InvitationDetails = z.infer<typeof invitationDetailsSchema>;

/** The invitee sets their name and password; the answer is a sign-in like `POST /api/auth/login`. */
export const acceptInvitationRequestSchema = z.strictObject({
  token: z.string().min(1).max(512),
  firstName: nameSchema(),
  lastName: nameSchema(),
  password: passwordSchema,
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;
