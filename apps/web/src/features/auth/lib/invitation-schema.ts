import { z } from 'zod';
import { acceptInvitationRequestSchema } from '@sf/contract/staff-invitations';

// The token comes from the link, not from the user: the form checks the names and the password with the API's bounds.
export const invitationFormSchema = acceptInvitationRequestSchema.omit({ token: true }).extend({ confirmPassword: z.string().min(1) });
