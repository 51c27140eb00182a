-- The points ledger (docs/product.md D "Ledger"; decision record 011-ledger-guarantees). Hand-written:
-- the append-only trigger, the partial indexes and the CHECKs are what guarantees the rules even
-- when the code above is wrong.
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL REFERENCES "customers"("id"),
	"program_id" uuid NOT NULL REFERENCES "programs"("id"),
	"balance" integer DEFAULT 0 NOT NULL CONSTRAINT "memberships_balance_non_negative" CHECK ("balance" >= 0),
	"stamps" integer DEFAULT 0 NOT NULL CONSTRAINT "memberships_stamps_non_negative" CHECK ("stamps" >= 0),
	"tier" text,
	"tier_floor" text,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "memberships_customer_program_unique" UNIQUE ("customer_id", "program_id")
);
--> statement-breakpoint
CREATE INDEX "memberships_program_tier_idx" ON "memberships" ("program_id", "tier");
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"membership_id" uuid NOT NULL REFERENCES "memberships"("id"),
	"customer_id" uuid NOT NULL REFERENCES "customers"("id"),
	"program_id" uuid NOT NULL REFERENCES "programs"("id"),
	"merchant_id" uuid REFERENCES "merchants"("id"),
	"kind" text NOT NULL CONSTRAINT "ledger_entries_kind_check" CHECK ("kind" IN ('earn', 'redeem', 'adjust', 'expire', 'reversal')),
	"source" text NOT NULL CONSTRAINT "ledger_entries_source_check" CHECK ("source" IN ('purchase', 'social', 'referral', 'birthday', 'bonus', 'manual', 'system')),
	"points" integer DEFAULT 0 NOT NULL,
	"stamps" integer DEFAULT 0 NOT NULL,
	"amount_cents" integer CONSTRAINT "ledger_entries_amount_non_negative" CHECK ("amount_cents" >= 0),
	"reason" text,
	"reverses_id" bigint REFERENCES "ledger_entries"("id"),
	"balance_after" integer NOT NULL CONSTRAINT "ledger_entries_balance_after_non_negative" CHECK ("balance_after" >= 0),
	"stamps_after" integer NOT NULL CONSTRAINT "ledger_entries_stamps_after_non_negative" CHECK ("stamps_after" >= 0),
	"expires_on" date,
	"idempotency_key" text,
	"created_by" uuid,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- One reversal per entry, ever.
	CONSTRAINT "ledger_entries_reverses_unique" UNIQUE ("reverses_id"),
	-- The same request from the same source makes one entry.
	CONSTRAINT "ledger_entries_source_key_unique" UNIQUE ("source", "idempotency_key"),
	CONSTRAINT "ledger_entries_reversal_target" CHECK (("kind" = 'reversal') = ("reverses_id" IS NOT NULL)),
	CONSTRAINT "ledger_entries_signs" CHECK (
		("kind" = 'earn' AND "points" >= 0 AND "stamps" >= 0)
		OR ("kind" IN ('redeem', 'expire') AND "points" <= 0 AND "stamps" <= 0)
		OR "kind" IN ('adjust', 'reversal')
	)
);
--> statement-breakpoint
-- Keyset-friendly: every list is "newest first" within one filter, so (filter, created_at, id).
CREATE INDEX "ledger_entries_customer_idx" ON "ledger_entries" ("customer_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "ledger_entries_program_idx" ON "ledger_entries" ("program_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "ledger_entries_merchant_idx" ON "ledger_entries" ("merchant_id", "created_at" DESC, "id" DESC) WHERE "merchant_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "ledger_entries_created_idx" ON "ledger_entries" ("created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "ledger_entries_membership_idx" ON "ledger_entries" ("membership_id", "id");
--> statement-breakpoint
-- Append-only in the database itself: no code path, migration slip or psql session edits history.
CREATE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_update_delete" BEFORE UPDATE OR DELETE ON "ledger_entries"
	FOR EACH ROW EXECUTE FUNCTION "ledger_entries_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
	FOR EACH STATEMENT EXECUTE FUNCTION "ledger_entries_append_only"();
--> statement-breakpoint
-- FIFO lots: the unspent rest of each positive movement, spent oldest first and written off by one
-- `expire` entry when its day has passed. A projection of the entries (it may change), not history.
CREATE TABLE "ledger_lots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL REFERENCES "ledger_entries"("id"),
	"membership_id" uuid NOT NULL REFERENCES "memberships"("id"),
	"points" integer NOT NULL CONSTRAINT "ledger_lots_points_positive" CHECK ("points" > 0),
	"remaining" integer NOT NULL,
	"expires_on" date,
	CONSTRAINT "ledger_lots_remaining_range" CHECK ("remaining" >= 0 AND "remaining" <= "points")
);
--> statement-breakpoint
CREATE INDEX "ledger_lots_open_idx" ON "ledger_lots" ("membership_id", "id") WHERE "remaining" > 0;
--> statement-breakpoint
CREATE INDEX "ledger_lots_expiry_idx" ON "ledger_lots" ("expires_on") WHERE "remaining" > 0 AND "expires_on" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "ledger_lots_entry_idx" ON "ledger_lots" ("entry_id");
--> statement-breakpoint
-- What each consuming entry took from which lot, so that its reversal gives the points back to
-- lots with the same expiry day.
CREATE TABLE "ledger_lot_takes" (
	"entry_id" bigint NOT NULL REFERENCES "ledger_entries"("id"),
	"lot_id" bigint NOT NULL REFERENCES "ledger_lots"("id"),
	"points" integer NOT NULL CONSTRAINT "ledger_lot_takes_points_positive" CHECK ("points" > 0),
	PRIMARY KEY ("entry_id", "lot_id")
);
--> statement-breakpoint
-- Answers of idempotent requests (all of them done). A request still in flight is not a row but a
-- transaction-scoped advisory lock on its key, and the row is written in the same transaction as the
-- entry: a crash leaves neither a half-done entry nor a key stuck "in flight".
CREATE TABLE "idempotency_records" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("scope", "key")
);
--> statement-breakpoint
-- Background jobs kept in PostgreSQL: they survive a restart, and FOR UPDATE SKIP LOCKED hands each
-- due job to one process only.
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL CONSTRAINT "jobs_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed')),
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_dedupe_unique" UNIQUE ("dedupe_key")
);
--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" ("run_at") WHERE "status" IN ('queued', 'running');
