-- Loyalty core (issue 7): merchants, customers and their consents, programs and their merchants.
-- Hand-written. Enum columns carry CHECK constraints; indexes are the ones the admin lists need at a
-- million customers (sort by name, prefix and contains search, exact card / referral / e-mail look-ups).
CREATE TABLE "merchants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"legal_name" text NOT NULL,
	"sign_name" text,
	"vat_number" text NOT NULL CONSTRAINT "merchants_vat_number_check" CHECK ("vat_number" ~ '^[0-9]{11}$'),
	"tax_code" text,
	"sdi_code" text CONSTRAINT "merchants_sdi_code_check" CHECK ("sdi_code" ~ '^[A-Z0-9]{7}$'),
	"pec" text,
	"category" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"province" text NOT NULL CONSTRAINT "merchants_province_check" CHECK ("province" ~ '^[A-Z]{2}$'),
	"postal_code" text NOT NULL CONSTRAINT "merchants_postal_code_check" CHECK ("postal_code" ~ '^[0-9]{5}$'),
	"phone" text,
	"email" text,
	"website" text,
	"social" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL CONSTRAINT "merchants_status_check" CHECK ("status" IN ('active', 'suspended', 'archived')),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchants_category_check" CHECK ("category" IN ('bar', 'restaurant', 'pizzeria', 'bakery', 'grocery', 'hairdresser', 'beauty', 'clothing', 'shoes', 'bookshop', 'pharmacy', 'gym', 'florist', 'optician', 'other')),
	CONSTRAINT "merchants_sdi_pec_check" CHECK ("sdi_code" IS DISTINCT FROM '0000000' OR "pec" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "merchants_vat_number_idx" ON "merchants" ("vat_number");
--> statement-breakpoint
CREATE INDEX "merchants_status_idx" ON "merchants" ("status");
--> statement-breakpoint
CREATE INDEX "merchants_legal_name_idx" ON "merchants" (lower("legal_name"), "id");
--> statement-breakpoint
CREATE SEQUENCE "customer_card_seq" START WITH 1;
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"birth_date" date,
	"city" text,
	"province" text CONSTRAINT "customers_province_check" CHECK ("province" ~ '^[A-Z]{2}$'),
	"card_number" text NOT NULL CONSTRAINT "customers_card_number_check" CHECK ("card_number" ~ '^[0-9]{13}$'),
	"referral_code" text NOT NULL,
	"referred_by" uuid REFERENCES "customers"("id") ON DELETE SET NULL,
	"status" text DEFAULT 'active' NOT NULL CONSTRAINT "customers_status_check" CHECK ("status" IN ('active', 'blocked', 'erased')),
	"service_consent" boolean DEFAULT false NOT NULL,
	"marketing_consent" boolean DEFAULT false NOT NULL,
	"profiling_consent" boolean DEFAULT false NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '') || ' ' || coalesce("phone", '') || ' ' || "card_number" || ' ' || "referral_code")) STORED,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_email_lower_check" CHECK ("email" = lower("email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customers_card_number_key" ON "customers" ("card_number");
--> statement-breakpoint
CREATE UNIQUE INDEX "customers_referral_code_key" ON "customers" ("referral_code");
--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email_key" ON "customers" (lower("email")) WHERE "email" IS NOT NULL;
--> statement-breakpoint
-- The default sort (name) and its tie-breaker; also serves equality on the surname.
CREATE INDEX "customers_name_idx" ON "customers" (lower("last_name"), lower("first_name"), "id");
--> statement-breakpoint
-- Surname prefix search (LIKE 'ros%') whatever the database collation.
CREATE INDEX "customers_last_name_prefix_idx" ON "customers" (lower("last_name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "customers_phone_idx" ON "customers" ("phone");
--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" ("created_at", "id");
--> statement-breakpoint
CREATE INDEX "customers_referred_by_idx" ON "customers" ("referred_by") WHERE "referred_by" IS NOT NULL;
--> statement-breakpoint
-- Contains search over name, e-mail, phone, card and referral code needs trigrams. pg_trgm ships with
-- PostgreSQL; the embedded PGlite has it only when the client loads it (db/client.ts does). Where it
-- is missing the search still works, by a sequential scan.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
		CREATE EXTENSION IF NOT EXISTS pg_trgm;
		EXECUTE 'CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin ("search_text" gin_trgm_ops)';
	END IF;
END
$$;
--> statement-breakpoint
CREATE TABLE "customer_consents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL REFERENCES "customers"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL CONSTRAINT "customer_consents_purpose_check" CHECK ("purpose" IN ('service', 'marketing', 'profiling')),
	"granted" boolean NOT NULL,
	"channel" text NOT NULL CONSTRAINT "customer_consents_channel_check" CHECK ("channel" IN ('counter', 'app', 'web', 'import', 'back-office')),
	"notice_version" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by" uuid
);
--> statement-breakpoint
CREATE INDEX "customer_consents_customer_idx" ON "customer_consents" ("customer_id", "purpose", "at");
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL CONSTRAINT "programs_type_check" CHECK ("type" IN ('points', 'stamps')),
	"status" text DEFAULT 'draft' NOT NULL CONSTRAINT "programs_status_check" CHECK ("status" IN ('draft', 'active', 'closed')),
	"points_per_euro" numeric(8, 2) CONSTRAINT "programs_points_per_euro_check" CHECK ("points_per_euro" > 0),
	"min_spend_cents" integer CONSTRAINT "programs_min_spend_check" CHECK ("min_spend_cents" >= 0),
	"stamps_required" integer CONSTRAINT "programs_stamps_required_check" CHECK ("stamps_required" > 0),
	"max_stamps_per_day" integer CONSTRAINT "programs_max_stamps_day_check" CHECK ("max_stamps_per_day" > 0),
	"max_stamps_per_transaction" integer CONSTRAINT "programs_max_stamps_tx_check" CHECK ("max_stamps_per_transaction" > 0),
	"tiers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tier_window" text DEFAULT 'rolling12' NOT NULL CONSTRAINT "programs_tier_window_check" CHECK ("tier_window" IN ('rolling12', 'calendarYear')),
	"expiry_policy" text DEFAULT 'never' NOT NULL CONSTRAINT "programs_expiry_policy_check" CHECK ("expiry_policy" IN ('never', 'afterDays', 'endOfYear')),
	"expiry_days" integer CONSTRAINT "programs_expiry_days_check" CHECK ("expiry_days" > 0),
	"bonuses" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programs_points_rate_check" CHECK ("type" <> 'points' OR "points_per_euro" IS NOT NULL),
	CONSTRAINT "programs_stamps_check" CHECK ("type" <> 'stamps' OR "stamps_required" IS NOT NULL),
	CONSTRAINT "programs_expiry_check" CHECK ("expiry_policy" <> 'afterDays' OR "expiry_days" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "programs_name_idx" ON "programs" (lower("name"), "id");
--> statement-breakpoint
CREATE TABLE "program_merchants" (
	"program_id" uuid NOT NULL REFERENCES "programs"("id") ON DELETE CASCADE,
	"merchant_id" uuid NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
	CONSTRAINT "program_merchants_pkey" PRIMARY KEY ("program_id", "merchant_id")
);
--> statement-breakpoint
CREATE INDEX "program_merchants_merchant_idx" ON "program_merchants" ("merchant_id");
