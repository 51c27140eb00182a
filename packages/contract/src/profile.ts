import { z } from 'zod';
import { staffProfileSchema } from './auth.ts';
import { phoneSchema } from './italian.ts';
import { BOUNDS, nameSchema } from './validation.ts';

/*
 * Apart from auth.ts because it checks phone numbers: auth.ts is what the sign-in page's forms load,
 * and libphonenumber's metadata (decision 012) has no business there.
 */

const text = (max: number) => z.string().trim().max(max);

/** Left blank (nothing to say) or, when something is typed, what `schema` accepts. */
function blankOr(schema: z.ZodType<string, string>, max: number) {
  return text(max).pipe(z.union([z.literal(''), schema]));
}

/** A web address people can open: http(s) only (no `javascript:`), as the merchants' website and social links. */
const webAddress = z.url({ protocol: /^https?$/ }).max(BOUNDS.urlMax);

/**
 * Own profile (the user menu's dialog), any subset of the fields. A staff member has a name: S3's
 * `displayName` is made of it, the header and the audit show it, and registration and invitations
 * ask for both parts; so a name once given cannot be emptied here. The phone is checked and stored
 * like the customers' and the merchants' (E.164, decision 012), websites and social links are http(s)
 * addresses; blank stays allowed for every optional field.
 */
export const updateProfileRequestSchema = staffProfileSchema
  .extend({
    // A name someone types refuses invisible formatting (bidi overrides, zero-width characters).
    firstName: nameSchema(BOUNDS.nameMax),
    lastName: nameSchema(BOUNDS.nameMax),
    fullname: nameSchema(200, 0),
    phone: blankOr(phoneSchema, 40),
    website: blankOr(webAddress, BOUNDS.urlMax),
    address: z.strictObject({
      addressLine: text(200),
      city: text(100),
      state: text(100),
      postCode: text(20),
    }),
    socialNetworks: z.strictObject({
      linkedIn: blankOr(webAddress, BOUNDS.urlMax),
      facebook: blankOr(webAddress, BOUNDS.urlMax),
      twitter: blankOr(webAddress, BOUNDS.urlMax),
      instagram: blankOr(webAddress, BOUNDS.urlMax),
    }),
  })
  .partial()
  .strict();
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;
