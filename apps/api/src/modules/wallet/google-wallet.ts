import { SignJWT } from 'jose';
import type { GoogleWallet } from './wallet-config.ts';
import { balanceText, rewardsReadyText, type PassContent } from './apple-pass.ts';

/**
 * Google Wallet (issue 27): a loyalty class per program, a loyalty object per membership. No client
 * library: the "Save to Google Wallet" link is a JWT signed with the service account's key, and the
 * updates are REST PATCHes with an OAuth access token obtained by the JWT-bearer grant (RFC 7523).
 */
export const GOOGLE_WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

export type GoogleContent = PassContent & { membershipId: string; programId: string; logoUrl: string };

export const classIdOf = (google: GoogleWallet, programId: string) => `${google.issuerId}.program-${programId}`;
export const objectIdOf = (google: GoogleWallet, membershipId: string) => `${google.issuerId}.member-${membershipId}`;

export function loyaltyClassOf(google: GoogleWallet, content: GoogleContent) {
  return {
    id: classIdOf(google, content.programId),
    issuerName: content.programName,
    programName: content.programName,
    programLogo: { sourceUri: { uri: content.logoUrl } },
    hexBackgroundColor: content.backgroundColor ?? '#1c3d5a',
    reviewStatus: 'UNDER_REVIEW',
  };
}

export function loyaltyObjectOf(google: GoogleWallet, content: GoogleContent) {
  const rewardsReady = rewardsReadyText(content);
  return {
    id: objectIdOf(google, content.membershipId),
    classId: classIdOf(google, content.programId),
    state: content.isVoided ? 'INACTIVE' : 'ACTIVE',
    accountId: content.cardNumber,
    accountName: content.holderName,
    loyaltyPoints: {
      label: content.programType === 'stamps' ? 'Timbri' : 'Punti',
      balance: content.programType === 'stamps' ? { string: String(balanceText(content)) } : { int: content.balance },
    },
    // What the till scans: `<card number>-<code>` (decision record 030), the number under it.
    barcode: { type: 'QR_CODE', value: content.barcodeMessage, alternateText: content.cardNumber },
    textModulesData: [
      ...(content.tier ? [{ id: 'tier', header: 'Livello', body: content.tier }] : []),
      ...(rewardsReady ? [{ id: 'rewardsReady', header: 'Alla cassa', body: rewardsReady }] : []),
    ],
  };
}

/** `https://pay.google.com/gp/v/save/<JWT>`: the class and the object, signed RS256 with the service account's key. */
export async function saveUrlOf(google: GoogleWallet, content: GoogleContent, appUrl: string, now: Date): Promise<string> {
  const jwt = await new SignJWT({
    origins: [new URL(appUrl).origin],
    typ: 'savetowallet',
    payload: { loyaltyClasses: [loyaltyClassOf(google, content)], loyaltyObjects: [loyaltyObjectOf(google, content)] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(google.clientEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(google.privateKey);
  return `https://pay.google.com/gp/v/save/${jwt}`;
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

/** An access token for the Wallet API, kept until a minute before it expires. */
export async function accessTokenFor(google: GoogleWallet): Promise<string> {
  const key = `${google.clientEmail}|${google.tokenUrl}`;
  const known = tokens.get(key);
  if (known && known.expiresAt > Date.now() + 60_000) return known.token;
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope: GOOGLE_WALLET_SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(google.clientEmail)
    .setAudience(google.tokenUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(google.privateKey);
  const response = await fetch(google.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`Google OAuth token endpoint answered ${response.status}`);
  const body = (await response.json()) as { access_token?: string; expires_in?: number };
  if (!body.access_token) throw new Error('Google OAuth token endpoint gave no access_token');
  tokens.set(key, { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 });
  return body.access_token;
}

/**
 * PATCHes the membership's loyalty object with what it shows now. `absent`: the customer never saved
 * it (Google creates it at the save), nothing to update. Any other failure throws: the job retries.
 */
export async function patchLoyaltyObject(google: GoogleWallet, content: GoogleContent): Promise<'patched' | 'absent'> {
  const object = loyaltyObjectOf(google, content);
  const token = await accessTokenFor(google);
  const response = await fetch(`${google.apiUrl}/loyaltyObject/${encodeURIComponent(object.id)}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(object),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 404) return 'absent';
  if (response.status === 401) tokens.delete(`${google.clientEmail}|${google.tokenUrl}`);
  if (!response.ok) throw new Error(`Google Wallet API answered ${response.status} to the loyalty object's update`);
  return 'patched';
}
