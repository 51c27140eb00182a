import { z } from 'zod';
import { ACCOUNT_ROLES } from './roles.ts';
import { BOUNDS, emailSchema, keyed, nameSchema, passwordSchema } from './validation.ts';
import { LANGUAGES } from './app-info.ts';

/** S18 `POST /api/auth/login` */
export const loginRequestSchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1).max(BOUNDS.passwordMax),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The identity provider's sign-in answer (Firebase-like): `expiresIn` is the ID token's lifetime in seconds. */
export const loginResponseSchema = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int(),
  localId: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** S6 `POST /api/auth` (registration). */
export const registerRequestSchema = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  firstName: nameSchema(),
  lastName: nameSchema(),
  acceptTerms: z.boolean().refine((accepted) => accepted, keyed('termsRequired')),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
export const registerResponseSchema = z.object({ email: z.string() });

/** S7 */
export const forgotPasswordRequestSchema = z.strictObject({ email: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.strictObject({
  token: z.string().min(1).max(512),
  password: passwordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** The secure-token endpoint (S10, S18): form-encoded or JSON. */
export const tokenRequestSchema = z.strictObject({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1).max(512),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  id_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const logoutRequestSchema = z.strictObject({ refreshToken: z.string().min(1).max(512) });

/** The claims of our ID token. */
export const idTokenClaimsSchema = z.object({
  sub: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ACCOUNT_ROLES).nullable(),
  /** The sign-in (refresh-token family) the token belongs to; the API's guard requires it to be live. */
  sid: z.uuid().optional(),
  iat: z.number(),
  exp: z.number(),
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
});
export type IdTokenClaims = z.infer<typeof idTokenClaimsSchema>;

const optionalText = (max: number) => z.string().trim().max(max);

/** The profile fields of the seed's demo users (S20). */
export const staffProfileSchema = z.object({
  firstName: optionalText(BOUNDS.nameMax),
  lastName: optionalText(BOUNDS.nameMax),
  fullname: optionalText(200),
  occupation: optionalText(100),
  companyName: optionalText(200),
  phone: optionalText(30),
  language: z.enum(LANGUAGES),
  timeZone: optionalText(64),
  website: optionalText(300),
  pic: optionalText(500),
  communication: z.object({ email: z.boolean(), sms: z.boolean(), phone: z.boolean() }),
  address: z.object({
    addressLine: optionalText(200),
    city: optionalText(100),
    state: optionalText(100),
    postCode: optionalText(20),
  }),
  socialNetworks: z.object({
    linkedIn: optionalText(300),
    facebook: optionalText(300),
    twitter: optionalText(300),
    instagram: optionalText(300),
  }),
});
export type StaffProfile = z.infer<typeof staffProfileSchema>;

/** S3: the current user (`token`/`refreshToken` are added by the client from its session). */
export const staffUserSchema = staffProfileSchema.extend({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(ACCOUNT_ROLES).nullable(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/**
 * S1 `POST /api/auth/login`: the tokens, and the staff member they belong to (S3) when the account may
 * enter, read as user-by-token reads it: the app signs the user in without asking for it again.
 */
export const signInResponseSchema = loginResponseSchema.extend({ user: staffUserSchema.optional() });
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** S4 `GET /api/admin/user-by-token` */
export const userByTokenQuerySchema = z.object({ token: z.string().min(1).max(4096).optional() });
export const userByTokenResponseSchema = z.object({ payload: staffUserSchema });

/** Own profile (the user menu's dialog): `updateProfileRequestSchema` lives in profile.ts (it checks phones). */
export const changePasswordRequestSchema = z.strictObject({
  currentPassword: z.string().min(1).max(BOUNDS.passwordMax),
  newPassword: passwordSchema,
});

/**
 * A password change ends every session of the account, this one included, and answers with a fresh
 * sign-in (same shape as the login answer) for the client to store.
 */
export const changePasswordResponseSchema = loginResponseSchema;
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;
