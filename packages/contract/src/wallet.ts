import { z } from 'zod';

/**
 * The card in the customer's phone (issue 27): the card link, the wallet buttons' answers, and the
 * bodies of Apple's PassKit web service (its protocol's own names).
 */
export const cardLinkSchema = z.object({
  url: z.url(),
  /**
   * Why "Invia per e-mail" would be refused now (no address, no service consent), in the caller's
   * language, as its 409 would say it; null when the link would be sent. The back-office says it
   * beside the disabled button instead of after a click.
   */
  emailRefusal: z.string().nullable(),
});
export type CardLink = z.infer<typeof cardLinkSchema>;

export const cardEmailSentSchema = z.object({ sentTo: z.string() });

export const googleWalletLinkSchema = z.object({ saveUrl: z.url() });
export type GoogleWalletLink = z.infer<typeof googleWalletLinkSchema>;

/** Which wallets are configured; for one that is not, the same text as its 503 `wallet_not_configured`. */
const walletStateSchema = z.object({ isConfigured: z.boolean(), message: z.string().nullable() });
export const walletStatusSchema = z.object({ apple: walletStateSchema, google: walletStateSchema });
export type WalletStatus = z.infer<typeof walletStatusSchema>;

export const membershipIdParamSchema = z.object({ id: z.uuid() });

// ---- Apple's PassKit web service ----
const deviceLibraryId = z.string().min(1).max(255).regex(/^[A-Za-z0-9._-]+$/);
const passTypeId = z.string().min(1).max(255);
const serialNumber = z.string().min(1).max(64);

export const passRegistrationParamsSchema = z.object({
  deviceLibraryIdentifier: deviceLibraryId,
  passTypeIdentifier: passTypeId,
  serialNumber,
});
export const deviceRegistrationsParamsSchema = z.object({ deviceLibraryIdentifier: deviceLibraryId, passTypeIdentifier: passTypeId });
export const passParamsSchema = z.object({ passTypeIdentifier: passTypeId, serialNumber });
export const pushTokenBodySchema = z.strictObject({ pushToken: z.string().min(1).max(255) });
export const updatedSerialsQuerySchema = z.object({ passesUpdatedSince: z.string().max(32).optional() });
export const updatedSerialsSchema = z.object({ serialNumbers: z.array(z.string()), lastUpdated: z.string() });
export const passLogBodySchema = z.strictObject({ logs: z.array(z.string().max(2000)).max(100) });

/** The card page's token: 43 characters of base64url. */
export const cardTokenParamsSchema = z.object({ token: z.string().max(64) });
