import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { StaffProfile } from '@sf/contract/auth';
import type { NewsAudience } from '@sf/contract/news';

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

/** Staff accounts of the built-in identity provider. */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Stored lower-cased, so that look-ups and the unique index ignore case. */
    email: text().notNull(),
    passwordHash: text().notNull(),
    /** null until an admin grants a role (B7). */
    role: text().$type<'admin' | 'editor' | 'member'>(),
    status: text().$type<'active' | 'disabled'>().notNull().default('active'),
    displayName: text().notNull(),
    profile: jsonb().$type<StaffProfile>().notNull(),
    passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the owner proved the address (B7); null for a self-registered account until it does. */
    emailConfirmedAt: timestamp({ withTimezone: true }).defaultNow(),
    /** The Firebase user this account is (AUTH_PROVIDER=firebase, decision 023); null otherwise. */
    firebaseUid: text(),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_firebase_uid_key').on(t.firebaseUid)],
);

/** A sign-in: the family of rotated refresh tokens; dies 10 days after sign-in (S2). */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    revokedReason: text(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes only; each is used once. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text().primaryKey(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp({ withTimezone: true }),
    /** Once used: its successor, sealed with a key derived from this token (the refresh grace window). */
    successorSealed: text(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** Single-use links, stored hashed: password resets and address confirmations. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text().primaryKey(),
    purpose: text().$type<'password_reset' | 'email_confirmation'>().notNull().default('password_reset'),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Failed sign-ins per account and client, for the growing lock-out delays. */
export const loginThrottles = pgTable('login_throttles', {
  key: text().primaryKey(),
  failures: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  lastFailureAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const uploads = pgTable('uploads', {
  id: text().primaryKey(),
  fileName: text().notNull(),
  contentType: text().notNull(),
  size: integer().notNull(),
  uploadedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  /** What the image is for (migration 0019): a news cover, a reward's image, a proof's screenshot. */
  purpose: text().$type<UploadPurpose>(),
  /** The API key that sent it (a proof's screenshot through the integration API), else null. */
  apiKeyId: uuid(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('uploads_uploaded_by_idx').on(t.uploadedBy)]);

export type UploadPurpose = 'cover' | 'reward' | 'proof';

export const newsPosts = pgTable(
  'news_posts',
  {
    id: serial().primaryKey(),
    title: text().notNull(),
    summary: text().notNull().default(''),
    body: text().notNull().default(''),
    coverImageId: text().references(() => uploads.id, { onDelete: 'set null' }),
    audience: text().$type<NewsAudience>().notNull().default('everyone'),
    /** For the `program` / `merchant` audiences (migration 0006); foreign keys in the SQL. */
    audienceProgramId: uuid(),
    audienceMerchantId: uuid(),
    /** The stored status; a scheduled post whose publish_at has passed reads as published. */
    status: text().$type<'draft' | 'scheduled' | 'published' | 'archived'>().notNull().default('draft'),
    publishAt: timestamp({ withTimezone: true }),
    pinned: boolean().notNull().default(false),
    authorId: uuid()
      .notNull()
      .references(() => users.id),
    version: integer().notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index('news_posts_status_publish_idx').on(t.status, t.publishAt),
    index('news_posts_updated_idx').on(t.updatedAt),
  ],
);

/** Every change by staff: who, when, what, before/after (B5). Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorId: uuid(),
    actorEmail: text(),
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text(),
    before: jsonb(),
    after: jsonb(),
    requestId: text(),
    ip: text(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorId, t.at),
    index('audit_log_entity_idx').on(t.entityType, t.entityId),
  ],
);

/**
 * Shared machinery's tables (issue 26: kept here, not in a module's schema): the background jobs of
 * lib/job-runner.ts and the stored answers of idempotent requests (lib/idempotency.ts).
 */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    scope: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    responseStatus: integer().notNull(),
    responseBody: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

export const jobs = pgTable('jobs', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  kind: text().notNull(),
  dedupeKey: text(),
  payload: jsonb().notNull().default({}),
  status: text().$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
  runAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  attempts: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  lastError: text(),
  result: jsonb(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp({ withTimezone: true }),
});


export * from '../modules/merchants/merchants.schema.ts';
export * from '../modules/customers/customers.schema.ts';
export * from '../modules/programs/programs.schema.ts';
export * from '../modules/ledger/ledger.schema.ts';
export * from '../modules/staff/staff.schema.ts';
export * from '../modules/rewards/rewards.schema.ts';
export * from '../modules/social-proofs/social-proofs.schema.ts';
export * from '../modules/rewards/rewards.schema.ts';
export * from '../modules/social-proofs/social-proofs.schema.ts';
export * from '../modules/dashboard/dashboard.schema.ts';
export * from '../modules/privacy/privacy.schema.ts';
export * from '../modules/imports/imports.schema.ts';
export * from '../modules/integration/integration.schema.ts';
export * from '../modules/wallet/wallet.schema.ts';
