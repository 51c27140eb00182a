import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@sf/contract/app-info';
import { errorText, type ErrorTextKey } from '@sf/contract/error-texts';
import type { CardLink } from '@sf/contract/wallet';
import type { Executor } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { Caller, RequestTrace, ServiceDeps } from '../../lib/caller.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/business-days.ts';
import { customerCard } from '../customers/customer-cards.service.ts';
import { customerInTransaction } from '../customers/customers.service.ts';
import { nameForMail, sendAwaitedMail, type Mailer } from '../../lib/mailer.ts';
import { customerMemberships } from '../ledger/ledger.service.ts';
import { APPLE_SETTINGS, GOOGLE_SETTINGS, type AppleWallet, type GoogleWallet, type WalletConfig } from './wallet-config.ts';
import { buildApplePass, type PassContent } from './apple-pass.ts';
import { patchLoyaltyObject, saveUrlOf, type GoogleContent } from './google-wallet.ts';
import { pushPassUpdate } from './apns.ts';
import { renderCardPage, type CardPageData } from './card-page.ts';
import { solidPng } from './solid-png.ts';
import * as repo from './wallet.repository.ts';

/**
 * The card in the customer's phone (issue 27, decision record 033): the card link and page, Apple's
 * pass and its web service, Google's object, and keeping them up to date. The barcode every one of
 * them carries is the customers module's `barcodeMessage` (`<card number>-<code>`, decision 030).
 */
export type WalletDeps = ServiceDeps & {
  cardCodeSecret: string;
  /** Card links and the passes' authentication tokens are derived from it (never stored). */
  cardLinkSecret: string;
  wallet: WalletConfig;
  appUrl: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The wallet's settings, checked at start (modules/wallet/wallet-config.ts). */
    wallet: WalletConfig;
    /** CARD_LINK_SECRET, or the one generated under DATA_DIR/keys. */
    cardLinkSecret: string;
  }
}

export function walletDepsOf(app: FastifyInstance): WalletDeps {
  return {
    db: app.db,
    clock: app.clock,
    timeZone: app.env.BUSINESS_TIME_ZONE,
    cardCodeSecret: app.cardCodeSecret,
    cardLinkSecret: app.cardLinkSecret,
    wallet: app.wallet,
    appUrl: app.env.APP_URL.replace(/\/$/, ''),
  };
}

/** How long the devices of a voided pass may still fetch it before they are forgotten. */
export const VOID_GRACE_MS = 24 * 3600 * 1000;

const membershipNotFound = () => notFound('membership');
const cardUnavailable = () => new AppError(409, 'card_unavailable');
export const appleNotConfigured = () =>
  new AppError(503, 'wallet_not_configured', { params: { wallet: 'Apple Wallet', settings: APPLE_SETTINGS.join(', ') } });
export const googleNotConfigured = () =>
  new AppError(503, 'wallet_not_configured', { params: { wallet: 'Google Wallet', settings: GOOGLE_SETTINGS.join(', ') } });

function requireApple(deps: WalletDeps): AppleWallet {
  if (!deps.wallet.apple) throw appleNotConfigured();
  return deps.wallet.apple;
}

function requireGoogle(deps: WalletDeps): GoogleWallet {
  if (!deps.wallet.google) throw googleNotConfigured();
  return deps.wallet.google;
}

// ---- Card links ----

/** 43 characters of base64url: HMAC-SHA-256 of the membership and the link's version. */
export const CARD_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const linkTokenOf = (secret: string, membershipId: string, version: number) =>
  createHmac('sha256', secret).update(`card-link:${membershipId}:${version}`).digest('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest();
const pageUrlOf = (deps: WalletDeps, token: string) => `${deps.appUrl}/c/${token}`;

/**
 * The live link of a membership, made (version 1, or the next after a revocation) when there is none;
 * with `regenerate`, always the next version: the old link stops answering at once.
 */
async function linkIn(tx: Executor, deps: WalletDeps, membershipId: string, options: { regenerate?: boolean } = {}) {
  const current = await repo.findCardLink(tx, membershipId, { forUpdate: true });
  if (current?.isLive && !options.regenerate) {
    return { url: pageUrlOf(deps, linkTokenOf(deps.cardLinkSecret, membershipId, current.version)), version: current.version, isNew: false };
  }
  const version = (current?.version ?? 0) + 1;
  const token = linkTokenOf(deps.cardLinkSecret, membershipId, version);
  await repo.saveCardLink(tx, membershipId, version, sha256(token), deps.clock.now());
  return { url: pageUrlOf(deps, token), version, isNew: true };
}

/**
 * The customer's card-page URL for a membership (creating the link if none), or null when the
 * membership cannot have one (unknown, or its customer blocked or erased). For the welcome e-mail.
 */
export async function cardLinkFor(deps: WalletDeps, membershipId: string): Promise<string | null> {
  const member = await repo.findWalletMember(deps.db, membershipId);
  if (!member || member.customerStatus !== 'active') return null;
  return deps.db.transaction(async (tx) => (await linkIn(tx, deps, membershipId)).url);
}

async function activeMember(deps: WalletDeps, membershipId: string) {
  const member = await repo.findWalletMember(deps.db, membershipId);
  if (!member) throw membershipNotFound();
  if (member.customerStatus !== 'active') throw cardUnavailable();
  return member;
}

/**
 * The one rule of "Invia per e-mail": an address, and the service consent (the card's own purpose), never
 * the marketing one. The address to write to, or why not: the send refuses with it, the link reports it.
 */
function cardEmailTarget(customer: { email: string | null; serviceConsent: boolean } | undefined): { to: string } | { refusal: ErrorTextKey } {
  if (!customer?.email) return { refusal: 'card_email_no_address' };
  return customer.serviceConsent ? { to: customer.email } : { refusal: 'card_email_no_consent' };
}

/** Why the customer's card could not be e-mailed now, in the caller's words (the 409's text), or null. */
async function emailRefusalIn(tx: Executor, customerId: string, caller: Caller): Promise<string | null> {
  const target = cardEmailTarget(await customerInTransaction(tx, customerId));
  return 'refusal' in target ? errorText(target.refusal, caller.language) : null;
}

/** The link staff copy or send, made on first use (audited then). */
async function staffLinkIn(tx: Executor, deps: WalletDeps, caller: Caller, membershipId: string): Promise<string> {
  const link = await linkIn(tx, deps, membershipId);
  if (link.isNew) {
    await recordAudit(tx, caller.actor, { action: 'card_link.create', entityType: 'membership', entityId: membershipId, after: { version: link.version } });
  }
  return link.url;
}

/** `GET /api/admin/memberships/:id/card-link`: the link staff copy or send, and whether it could be e-mailed. */
export async function getCardLink(deps: WalletDeps, caller: Caller, membershipId: string): Promise<CardLink> {
  const member = await activeMember(deps, membershipId);
  return deps.db.transaction(async (tx) => ({
    url: await staffLinkIn(tx, deps, caller, membershipId),
    emailRefusal: await emailRefusalIn(tx, member.customerId, caller),
  }));
}

/** `POST …/card-link`: "Rigenera link" — a new link; the old one answers 404 from now on. Audited. */
export async function regenerateCardLink(deps: WalletDeps, caller: Caller, membershipId: string): Promise<CardLink> {
  const member = await activeMember(deps, membershipId);
  return deps.db.transaction(async (tx) => {
    const link = await linkIn(tx, deps, membershipId, { regenerate: true });
    await recordAudit(tx, caller.actor, { action: 'card_link.regenerate', entityType: 'membership', entityId: membershipId, after: { version: link.version } });
    return { url: link.url, emailRefusal: await emailRefusalIn(tx, member.customerId, caller) };
  });
}

/**
 * "Invia per e-mail": a service e-mail with the card link, to the customer's address. It needs the
 * service consent (the card's own purpose, docs/product.md D), never the marketing one. Audited.
 */
export async function emailCardLink(deps: WalletDeps & { mailer: Mailer }, caller: Caller & RequestTrace, membershipId: string): Promise<{ sentTo: string }> {
  const member = await activeMember(deps, membershipId);
  const customer = await customerInTransaction(deps.db, member.customerId);
  const target = cardEmailTarget(customer);
  if ('refusal' in target) throw new AppError(409, 'conflict', { text: target.refusal });
  const url = await deps.db.transaction((tx) => staffLinkIn(tx, deps, caller, membershipId));
  const name = nameForMail(customer?.firstName ?? '');
  await sendAwaitedMail({ mailer: deps.mailer, log: caller.log }, {
    to: target.to,
    subject: `La tua tessera ${member.programName}`,
    text:
      `Ciao${name ? ` ${name}` : ''},\n\necco la tua tessera ${member.programName}: aprila dal telefono e mostrala alla cassa, ` +
      `oppure aggiungila ad Apple Wallet o Google Wallet dalla stessa pagina.\n\n${url}\n\n` +
      'Il link è personale: non inoltrarlo. Se lo perdi, chiedine uno nuovo in negozio.\n',
  }, { what: 'card link' });
  await deps.db.transaction((tx) =>
    recordAudit(tx, caller.actor, { action: 'card_link.email', entityType: 'membership', entityId: membershipId, after: { customerId: member.customerId } }),
  );
  return { sentTo: target.to };
}

/** The membership behind a live card link, or null (unknown, replaced, revoked, or its customer no longer active). */
async function memberOfToken(deps: WalletDeps, token: string) {
  if (!CARD_LINK_TOKEN.test(token)) return null;
  const membershipId = await repo.membershipOfTokenHash(deps.db, sha256(token));
  if (!membershipId) return null;
  const member = await repo.findWalletMember(deps.db, membershipId);
  return member && member.customerStatus === 'active' ? member : null;
}

/** Points expiring within this many days are listed on the card page. */
const CARD_PAGE_EXPIRING_DAYS = 90;

/** The card page's HTML for a token, or null (the page then answers 404, whatever the reason). */
export async function cardPageHtml(deps: WalletDeps, token: string, language: Language): Promise<string | null> {
  const member = await memberOfToken(deps, token);
  if (!member) return null;
  const card = await customerCard(deps, member.customerId);
  const today = localDate(deps.clock.now(), deps.timeZone);
  const horizon = localDate(new Date(deps.clock.now().getTime() + CARD_PAGE_EXPIRING_DAYS * 86_400_000), deps.timeZone);
  const detail = (await customerMemberships(deps, member.customerId)).items.find((item) => item.id === member.membershipId);
  const data: CardPageData = {
    language,
    programName: member.programName,
    programType: member.programType,
    balance: member.balance,
    stamps: member.stamps,
    stampsRequired: member.stampsRequired,
    tier: member.tier,
    firstName: member.firstName,
    cardNumber: card.cardNumber,
    barcodeMessage: card.barcodeMessage,
    backgroundColor: member.backgroundColor,
    foregroundColor: member.foregroundColor,
    logoUrl: member.logo ? programLogoPath(member.programId) : null,
    terms: member.terms,
    expiring: (detail?.expiring ?? []).filter((lot) => lot.expiresOn >= today && lot.expiresOn <= horizon).slice(0, 5),
    vouchers: await repo.usableVouchersOf(deps.db, member.customerId, member.programId, today),
    appleUrl: deps.wallet.apple ? `/c/${token}/pass.pkpass` : null,
    googleUrl: deps.wallet.google ? `/c/${token}/google-wallet` : null,
  };
  return renderCardPage(data);
}

/** The program's logo, public (it is on every pass): the card page and Google's class point at it. */
export const programLogoPath = (programId: string) => `/api/wallet/programs/${programId}/logo.png`;

/** The program's logo, a plain square of its colour when it has none (Google's class needs an image). 404 for an unknown program. */
export async function programLogo(deps: WalletDeps, programId: string): Promise<Buffer> {
  const logo = await repo.findProgramLogo(deps.db, programId);
  if (logo === undefined) throw notFound('program');
  return logo ? Buffer.from(logo.slice(logo.indexOf(',') + 1), 'base64') : solidPng(8, 8, '#1c3d5a');
}

// ---- Passes ----

const authTokenOf = (secret: string, serialNumber: string, version: number) =>
  createHmac('sha256', secret).update(`apple-pass:${serialNumber}:${version}`).digest('base64url');

async function contentOf(deps: WalletDeps, member: repo.WalletMember, pass: repo.PassRow, withLink: boolean): Promise<PassContent> {
  const card = await customerCard(deps, member.customerId);
  const isActive = member.customerStatus === 'active';
  return {
    serialNumber: pass.serialNumber,
    authenticationToken: authTokenOf(deps.cardLinkSecret, pass.serialNumber, pass.authVersion),
    webServiceUrl: `${deps.appUrl}/api/wallet/apple`,
    programName: member.programName,
    programType: member.programType,
    balance: member.balance,
    stamps: member.stamps,
    stampsRequired: member.stampsRequired,
    tier: member.tier,
    holderName: `${member.firstName} ${member.lastName}`.trim(),
    cardNumber: card.cardNumber,
    barcodeMessage: card.barcodeMessage,
    backgroundColor: member.backgroundColor,
    foregroundColor: member.foregroundColor,
    logo: member.logo,
    terms: member.terms,
    merchants: await repo.merchantNamesOf(deps.db, member.programId),
    cardPageUrl: withLink && isActive ? await cardLinkFor(deps, member.membershipId) : null,
    isVoided: pass.isVoided || !isActive,
  };
}

/** The membership's pass row for an active customer: made on first use; a voided one (the customer was blocked, then unblocked) is replaced. */
async function livePass(deps: WalletDeps, member: repo.WalletMember, options: { google?: boolean } = {}) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const existing = await repo.findPass(tx, member.membershipId);
    if (existing?.isVoided) await repo.dropPass(tx, member.membershipId);
    return repo.ensurePass(tx, member.membershipId, member.digest, now, options);
  });
}

/** `GET /api/admin/memberships/:id/pass.pkpass` and the card page's Apple button: the signed pass. */
export async function applePass(deps: WalletDeps, membershipId: string): Promise<Buffer> {
  const member = await activeMember(deps, membershipId);
  const apple = requireApple(deps);
  const pass = await livePass(deps, member);
  return buildApplePass(apple, await contentOf(deps, member, pass, true));
}

export async function applePassForCard(deps: WalletDeps, token: string): Promise<Buffer | null> {
  const apple = requireApple(deps);
  const member = await memberOfToken(deps, token);
  if (!member) return null;
  const pass = await livePass(deps, member);
  return buildApplePass(apple, await contentOf(deps, member, pass, true));
}

async function googleContentOf(deps: WalletDeps, member: repo.WalletMember, pass: repo.PassRow): Promise<GoogleContent> {
  return {
    ...(await contentOf(deps, member, pass, false)),
    membershipId: member.membershipId,
    programId: member.programId,
    logoUrl: `${deps.appUrl}${programLogoPath(member.programId)}`,
  };
}

/** `GET /api/admin/memberships/:id/google-wallet`: the "Save to Google Wallet" link. */
export async function googleSaveUrl(deps: WalletDeps, membershipId: string): Promise<{ saveUrl: string }> {
  const member = await activeMember(deps, membershipId);
  const google = requireGoogle(deps);
  const pass = await livePass(deps, member, { google: true });
  return { saveUrl: await saveUrlOf(google, await googleContentOf(deps, member, pass), deps.appUrl, deps.clock.now()) };
}

export async function googleSaveUrlForCard(deps: WalletDeps, token: string): Promise<string | null> {
  const google = requireGoogle(deps);
  const member = await memberOfToken(deps, token);
  if (!member) return null;
  const pass = await livePass(deps, member, { google: true });
  return saveUrlOf(google, await googleContentOf(deps, member, pass), deps.appUrl, deps.clock.now());
}

// ---- The PassKit web service (Apple's protocol) ----

const unauthorized = () => new AppError(401, 'unauthenticated');
const unknownPass = () => notFound('cardNumber');

/** The pass named in the path, its `Authorization: ApplePass <token>` checked in constant time (401 otherwise). */
async function authorisedPass(deps: WalletDeps, passTypeId: string, serialNumber: string, authorization: string | undefined) {
  // Without the Apple settings no pass can be authenticated: a device is told so (401), and stops,
  // rather than 503 (which it would retry for ever). Staff's endpoints say wallet_not_configured.
  if (!deps.wallet.apple) throw unauthorized();
  if (passTypeId !== deps.wallet.apple.passTypeId) throw unknownPass();
  const pass = await repo.findPassBySerial(deps.db, serialNumber);
  const given = /^ApplePass (\S+)$/.exec(authorization ?? '')?.[1] ?? '';
  // Compared even for an unknown serial: the answer's time says nothing about which serials exist.
  const expected = authTokenOf(deps.cardLinkSecret, pass?.serialNumber ?? '00000000-0000-0000-0000-000000000000', pass?.authVersion ?? 1);
  const isMatch = timingSafeEqual(sha256(expected), sha256(given));
  if (!pass || !isMatch) throw unauthorized();
  return pass;
}

export type DeviceRegistration = { passTypeId: string; deviceLibraryId: string; serialNumber: string; authorization: string | undefined; pushToken: string };

/** 201 for a new registration, 200 for a known one. */
export async function registerDevice(deps: WalletDeps, input: DeviceRegistration): Promise<201 | 200> {
  const pass = await authorisedPass(deps, input.passTypeId, input.serialNumber, input.authorization);
  // A voided pass takes no new devices (and its devices are being forgotten).
  if (pass.isVoided) throw unauthorized();
  return (await repo.register(deps.db, input.deviceLibraryId, pass.serialNumber, input.pushToken, deps.clock.now())) ? 201 : 200;
}

export async function unregisterDevice(deps: WalletDeps, input: Omit<DeviceRegistration, 'pushToken'>): Promise<void> {
  const pass = await authorisedPass(deps, input.passTypeId, input.serialNumber, input.authorization);
  await repo.unregister(deps.db, input.deviceLibraryId, pass.serialNumber);
}

/** The device's passes updated after the tag (`passesUpdatedSince`), or null (204) when none. */
export async function updatedSerials(deps: WalletDeps, passTypeId: string, deviceLibraryId: string, since: string | undefined) {
  if (!deps.wallet.apple || passTypeId !== deps.wallet.apple.passTypeId) return null;
  const tag = since !== undefined && /^\d{1,18}$/.test(since) ? Number(since) : null;
  const serials = await repo.serialsUpdatedSince(deps.db, deviceLibraryId, tag);
  if (serials.length === 0) return null;
  return { serialNumbers: serials.map((serial) => serial.serialNumber), lastUpdated: String(Math.max(...serials.map((serial) => serial.updateTag))) };
}

/** The latest pass, or `not_modified` when it has not changed since `If-Modified-Since` (HTTP dates: whole seconds). */
export async function latestPass(
  deps: WalletDeps,
  input: { passTypeId: string; serialNumber: string; authorization: string | undefined; ifModifiedSince: string | undefined },
): Promise<{ body: Buffer; lastModified: Date } | 'not_modified'> {
  const pass = await authorisedPass(deps, input.passTypeId, input.serialNumber, input.authorization);
  const apple = requireApple(deps);
  const lastModified = new Date(Math.floor(pass.updatedAt.getTime() / 1000) * 1000);
  const since = input.ifModifiedSince ? Date.parse(input.ifModifiedSince) : Number.NaN;
  if (!Number.isNaN(since) && lastModified.getTime() <= since) return 'not_modified';
  const member = await repo.findWalletMember(deps.db, pass.membershipId);
  if (!member) throw unknownPass();
  return { body: buildApplePass(apple, await contentOf(deps, member, pass, true)), lastModified };
}

// ---- Keeping passes up to date ----

/**
 * Blocking or erasing a customer, in the caller's transaction: the card links stop answering, the
 * passes are void (a push tells the devices, Google's objects become INACTIVE), and the devices are
 * forgotten once they have had time to fetch the voided pass.
 */
export async function voidCustomerWallet(tx: Executor, customerId: string, now: Date): Promise<{ links: number; passes: number; devices: number }> {
  const links = await repo.revokeCardLinksOf(tx, customerId, now);
  const voided = await repo.voidPassesOf(tx, customerId, now);
  const batchTag = Math.max(0, ...voided.map((pass) => pass.updateTag));
  await repo.queuePushes(tx, voided.map((pass) => pass.serialNumber), batchTag);
  await repo.queueGooglePatches(tx, voided.filter((pass) => pass.hasGoogleObject));
  const devices = await repo.scheduleForgettingDevicesOf(tx, customerId, new Date(now.getTime() + VOID_GRACE_MS));
  return { links, passes: voided.length, devices };
}

const SYNC_BATCH = 1000;

/**
 * The `wallet.sync` job: passes whose membership now shows something else are marked updated (new
 * tag), and one push per device and one Google patch per object are queued with them, in the same
 * transaction. Whatever changed between two runs — a burst of purchases — makes one push per device.
 */
export async function syncWallet(deps: WalletDeps): Promise<{ passes: number; pushes: number; patches: number; forgotten: number }> {
  let passes = 0;
  let pushes = 0;
  let patches = 0;
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const changed = await repo.markChangedPasses(tx, deps.clock.now(), SYNC_BATCH);
      const batchTag = Math.max(0, ...changed.map((pass) => pass.updateTag));
      pushes += deps.wallet.apple ? await repo.queuePushes(tx, changed.map((pass) => pass.serialNumber), batchTag) : 0;
      patches += deps.wallet.google ? await repo.queueGooglePatches(tx, changed.filter((pass) => pass.hasGoogleObject)) : 0;
      return changed.length;
    });
    passes += batch;
    if (batch < SYNC_BATCH) break;
  }
  const forgotten = await repo.forgetDueDevices(deps.db, deps.clock.now());
  return { passes, pushes, patches, forgotten };
}

/** The `wallet.apns` job: one push to one device. Throws when APNs cannot be reached (retried later). */
export async function deliverPush(deps: WalletDeps, pushToken: string): Promise<'sent' | 'gone' | 'skipped'> {
  if (!deps.wallet.apple) return 'skipped';
  const outcome = await pushPassUpdate(deps.wallet.apple, pushToken);
  if (outcome === 'gone') await repo.forgetPushToken(deps.db, pushToken);
  return outcome;
}

/** The `wallet.google` job: the membership's loyalty object patched with what it shows now. */
export async function deliverGooglePatch(deps: WalletDeps, membershipId: string): Promise<'patched' | 'absent' | 'skipped'> {
  if (!deps.wallet.google) return 'skipped';
  const member = await repo.findWalletMember(deps.db, membershipId);
  const pass = await repo.findPass(deps.db, membershipId);
  if (!member || !pass) return 'skipped';
  return patchLoyaltyObject(deps.wallet.google, await googleContentOf(deps, member, pass));
}
