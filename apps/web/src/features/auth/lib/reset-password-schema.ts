import { z } from 'zod';
import { passwordSchema } from '@sf/contract/validation';

// The token comes from the link, not from the user: the form checks the password with the API's bounds.
// The fields are named as the page labels them ("Nuova password", "Conferma la nuova password"), so
// that every text names the field it stands under; the request's `password` is `newPassword` here.
export const resetPasswordFormSchema = z.object({ newPassword: passwordSchema, confirmNewPassword: z.string().min(1) });
