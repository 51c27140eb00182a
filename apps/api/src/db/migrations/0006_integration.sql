-- The integration API's keys, the automatic bonuses' "paid once" marks, and the news audiences
-- (docs/product.md D "Integration API", "News post"; decision records 017 and 018). Hand-written.
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	-- A merchant's till (merchant_id set) or the customers' app (merchant_id null).
	"kind" text NOT NULL CONSTRAINT "api_keys_kind_check" CHECK ("kind" IN ('merchant', 'app')),
	"merchant_id" uuid REFERENCES "merchants"("id"),
	"scopes" text[] NOT NULL,
	-- HMAC-SHA-256 of the whole secret under the server's key pepper (docs/security.md): never the secret.
	"secret_hash" text NOT NULL CONSTRAINT "api_keys_secret_hash_unique" UNIQUE,
	-- The first characters of the secret, shown in the list so staff can tell keys apart.
	"prefix" text NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_merchant_of_kind" CHECK (("kind" = 'merchant') = ("merchant_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX "api_keys_created_idx" ON "api_keys" ("created_at" DESC, "id" DESC);
--> statement-breakpoint
-- One row per automatic bonus decided (referral per referee, birthday per customer, program and
-- year), written in the same transaction as its ledger entries: the jobs skip what is marked.
CREATE TABLE "bonus_awards" (
	"award_key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL CONSTRAINT "bonus_awards_kind_check" CHECK ("kind" IN ('referral', 'birthday')),
	"customer_id" uuid NOT NULL REFERENCES "customers"("id"),
	"program_id" uuid NOT NULL REFERENCES "programs"("id"),
	"points" integer NOT NULL,
	"note" text,
	"awarded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "news_posts" ADD COLUMN "audience_program_id" uuid REFERENCES "programs"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "news_posts" ADD COLUMN "audience_merchant_id" uuid REFERENCES "merchants"("id") ON DELETE SET NULL;
