import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Language } from '@sf/contract/app-info';

/**
 * Invitations to join the staff (issue 11): an admin names a person, an address and a role; the link
 * e-mailed to them carries a token of which only the SHA-256 is kept. A resend replaces the hash (the
 * old link dies) and starts the 7 days again; accepting or revoking closes the invitation for good.
 * Migration 0004_staff_invitations.sql is the source of truth (foreign keys to users, the role CHECK).
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Lower-cased, like users.email. */
    email: text().notNull(),
    displayName: text().notNull(),
    role: text().$type<'admin' | 'editor'>().notNull(),
    /** The language of the e-mail: the inviting admin's. */
    language: text().$type<Language>().notNull(),
    tokenHash: text().notNull(),
    invitedBy: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the current link was sent (creation or the latest resend). */
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedUserId: uuid(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_invitations_token_hash_key').on(t.tokenHash),
    // At most one open invitation per address: a new one replaces the open one.
    uniqueIndex('staff_invitations_open_email_key').on(t.email).where(sql`accepted_at is null and revoked_at is null`),
    index('staff_invitations_invited_by_idx').on(t.invitedBy),
  ],
);
