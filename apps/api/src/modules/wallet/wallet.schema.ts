import { bigint, boolean, customType, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The wallet's tables (migration 0024_wallet.sql is the source of truth: checks, foreign keys, the tag sequence). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** The customer's card link: the token is derived (HMAC of the membership and `version`), only its SHA-256 kept. */
export const walletCardLinks = pgTable('wallet_card_links', {
  membershipId: uuid().primaryKey(),
  version: integer().notNull().default(1),
  /** Null once revoked (the customer blocked or erased). */
  tokenHash: bytea(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
  revokedAt: timestamp({ withTimezone: true }),
});

/** The passes issued, one per membership: Apple's serial number, the state last shown, the update tag. */
export const walletPasses = pgTable('wallet_passes', {
  membershipId: uuid().primaryKey(),
  serialNumber: uuid().notNull().defaultRandom(),
  /** The pass's authenticationToken is derived from the serial number and this version. */
  authVersion: integer().notNull().default(1),
  stateDigest: text(),
  updateTag: bigint({ mode: 'number' }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
  isVoided: boolean().notNull().default(false),
  hasGoogleObject: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull(),
});

/** Apple devices registered for a pass's updates, with their push token. */
export const walletRegistrations = pgTable(
  'wallet_registrations',
  {
    deviceLibraryId: text().notNull(),
    serialNumber: uuid().notNull(),
    pushToken: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** A voided pass's devices are forgotten after this (or once they fetched the voided pass). */
    forgetAfter: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.deviceLibraryId, t.serialNumber] })],
);
