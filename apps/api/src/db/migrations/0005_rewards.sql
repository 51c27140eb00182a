-- Premi (rewards), vouchers and social-action proofs (docs/product.md D "Reward", "Social-action proofs";
-- decision record 015). Hand-written: the CHECKs and unique indexes are what keeps stock, single use
-- and "one bonus per proof" true even when the code above is wrong.
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_source_check";
--> statement-breakpoint
-- `reward`: the redeem entry of a reward's redemption (the voucher row points back at it).
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_source_check"
	CHECK ("source" IN ('purchase', 'social', 'referral', 'birthday', 'bonus', 'manual', 'system', 'reward'));
--> statement-breakpoint
CREATE TABLE "rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"program_id" uuid NOT NULL REFERENCES "programs"("id"),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_id" text REFERENCES "uploads"("id") ON DELETE SET NULL,
	"cost" integer NOT NULL CONSTRAINT "rewards_cost_positive" CHECK ("cost" > 0),
	-- Redemptions left; NULL = unlimited. Never below zero, whatever the code does.
	"stock" integer CONSTRAINT "rewards_stock_non_negative" CHECK ("stock" >= 0),
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"limit_per_customer" integer CONSTRAINT "rewards_limit_positive" CHECK ("limit_per_customer" > 0),
	"status" text DEFAULT 'draft' NOT NULL CONSTRAINT "rewards_status_check" CHECK ("status" IN ('draft', 'active', 'archived')),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rewards_window" CHECK ("valid_from" IS NULL OR "valid_until" IS NULL OR "valid_from" < "valid_until")
);
--> statement-breakpoint
CREATE INDEX "rewards_program_idx" ON "rewards" ("program_id", "status");
--> statement-breakpoint
CREATE INDEX "rewards_name_idx" ON "rewards" (lower("name"), "id");
--> statement-breakpoint
-- One row per code. `expired` is not stored: an available or issued code past its reward's window
-- reads as expired. A redemption is the issue of one voucher (customer + the redeem entry).
CREATE TABLE "vouchers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reward_id" uuid NOT NULL REFERENCES "rewards"("id"),
	"code" text NOT NULL,
	"origin" text NOT NULL CONSTRAINT "vouchers_origin_check" CHECK ("origin" IN ('generated', 'imported', 'redemption')),
	"status" text DEFAULT 'available' NOT NULL CONSTRAINT "vouchers_status_check" CHECK ("status" IN ('available', 'issued', 'used', 'void')),
	"customer_id" uuid REFERENCES "customers"("id"),
	"entry_id" bigint REFERENCES "ledger_entries"("id"),
	"issued_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"used_merchant_id" uuid REFERENCES "merchants"("id"),
	"used_by_label" text,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- Codes are unique across every reward: a till reads a code, not a reward.
	CONSTRAINT "vouchers_code_unique" UNIQUE ("code"),
	-- One voucher per redeem entry.
	CONSTRAINT "vouchers_entry_unique" UNIQUE ("entry_id"),
	CONSTRAINT "vouchers_issued_has_customer" CHECK ("status" IN ('available', 'void') OR ("customer_id" IS NOT NULL AND "issued_at" IS NOT NULL)),
	CONSTRAINT "vouchers_used_has_time" CHECK ("status" <> 'used' OR ("used_at" IS NOT NULL AND "used_merchant_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX "vouchers_reward_idx" ON "vouchers" ("reward_id", "status", "id");
--> statement-breakpoint
CREATE INDEX "vouchers_customer_idx" ON "vouchers" ("customer_id", "reward_id") WHERE "customer_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "social_proofs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL REFERENCES "customers"("id"),
	"program_id" uuid NOT NULL REFERENCES "programs"("id"),
	"merchant_id" uuid REFERENCES "merchants"("id"),
	"kind" text NOT NULL CONSTRAINT "social_proofs_kind_check" CHECK ("kind" IN ('share', 'review', 'checkIn')),
	"url" text,
	"image_id" text REFERENCES "uploads"("id") ON DELETE SET NULL,
	"note" text,
	"channel" text NOT NULL CONSTRAINT "social_proofs_channel_check" CHECK ("channel" IN ('app', 'integration', 'back-office')),
	"submitted_by_label" text NOT NULL,
	-- A client's retry of one submission makes one proof (scope: who submitted, e.g. the API key).
	"idempotency_scope" text,
	"idempotency_key" text,
	"status" text DEFAULT 'pending' NOT NULL CONSTRAINT "social_proofs_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected')),
	"reason" text,
	"points" integer CONSTRAINT "social_proofs_points_non_negative" CHECK ("points" >= 0),
	"entry_id" bigint REFERENCES "ledger_entries"("id"),
	"decided_by" uuid,
	"decided_by_label" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- An erasure request (GDPR art. 17) removed the link, the screenshot and the note; the decision stays.
	"erased_at" timestamp with time zone,
	CONSTRAINT "social_proofs_evidence" CHECK ("url" IS NOT NULL OR "image_id" IS NOT NULL OR "erased_at" IS NOT NULL),
	CONSTRAINT "social_proofs_decided" CHECK (("status" = 'pending') = ("decided_at" IS NULL)),
	CONSTRAINT "social_proofs_rejected_reason" CHECK ("status" <> 'rejected' OR "reason" IS NOT NULL),
	CONSTRAINT "social_proofs_entry_unique" UNIQUE ("entry_id"),
	CONSTRAINT "social_proofs_idempotency_unique" UNIQUE ("idempotency_scope", "idempotency_key")
);
--> statement-breakpoint
-- The queue: pending first, oldest first.
CREATE INDEX "social_proofs_queue_idx" ON "social_proofs" (("status" <> 'pending'), "created_at", "id");
--> statement-breakpoint
CREATE INDEX "social_proofs_customer_idx" ON "social_proofs" ("customer_id", "program_id", "kind", "decided_at");
--> statement-breakpoint
CREATE INDEX "social_proofs_program_idx" ON "social_proofs" ("program_id", "created_at");
