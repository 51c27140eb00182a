import { z } from 'zod';
import { passwordSchema } from '@sf/contract/validation';

// The token comes from the link, not from the user: the form checks the password with the API's bounds.
export const resetPasswordFormSchema = z.object({ password: passwordSchema, confirmPassword: z.string() });
