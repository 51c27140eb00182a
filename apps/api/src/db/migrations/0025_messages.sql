-- Hand-written (issue 28): e-mail campaigns to consenting customers, one row per recipient, and the
-- one-click unsubscribe (RFC 8058) recorded in the consent history with its own channel.

-- A withdrawal made by the customer through the link in an e-mail (`POST /u/<token>`).
ALTER TABLE "customer_consents" DROP CONSTRAINT "customer_consents_channel_check";
--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_channel_check"
	CHECK ("channel" IN ('counter', 'app', 'web', 'import', 'back-office', 'email_link'));
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"preheader" text NOT NULL DEFAULT '',
	-- Sanitised rich text (the news editor's allow-list), never raw input.
	"body" text NOT NULL DEFAULT '',
	-- { programId, merchantId, tier, inactiveDays, birthdayMonth, joinedAfter }: the filters; consent,
	-- blocks, status and the address are added by the system and cannot be turned off.
	"audience" jsonb NOT NULL DEFAULT '{}'::jsonb,
	"status" text NOT NULL DEFAULT 'draft'
		CONSTRAINT "campaigns_status_check" CHECK ("status" IN ('draft', 'scheduled', 'sending', 'sent', 'cancelled')),
	"scheduled_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_by" uuid,
	"version" integer NOT NULL DEFAULT 1,
	"created_at" timestamp with time zone NOT NULL DEFAULT now(),
	"updated_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "campaigns_created_idx" ON "campaigns" ("created_at" DESC, "id");
--> statement-breakpoint
-- One row per recipient, written when the campaign starts sending (the audience at that moment).
-- queued → sending (claimed, its SMTP exchange under way) → sent | failed | queued again (a temporary
-- failure, after next_attempt_at); queued → skipped (consent withdrawn, or the campaign cancelled).
-- A row still `sending` after its claim ran out belongs to a process that died mid-send: it becomes
-- `unknown` and is never retried by itself (it may have been delivered).
CREATE TABLE "campaign_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" uuid NOT NULL REFERENCES "campaigns" ("id") ON DELETE CASCADE,
	"customer_id" uuid NOT NULL REFERENCES "customers" ("id") ON DELETE CASCADE,
	-- The address at queueing time; null once the customer is erased.
	"email" text,
	"status" text NOT NULL DEFAULT 'queued'
		CONSTRAINT "campaign_recipients_status_check" CHECK ("status" IN ('queued', 'sending', 'sent', 'failed', 'skipped', 'unknown')),
	"attempts" integer NOT NULL DEFAULT 0,
	"next_attempt_at" timestamp with time zone NOT NULL DEFAULT now(),
	"claim_id" uuid,
	"claimed_until" timestamp with time zone,
	-- The SMTP server's answer to a failed or retried attempt, or why a row was skipped.
	"last_error" text,
	"sent_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	-- The unsubscribe link's secret (32 hex characters, 122 random bits): it only lets its holder withdraw
	-- this customer's marketing and profiling consents and shows no personal data.
	"token" text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
	CONSTRAINT "campaign_recipients_campaign_customer_key" UNIQUE ("campaign_id", "customer_id"),
	CONSTRAINT "campaign_recipients_token_key" UNIQUE ("token")
);
--> statement-breakpoint
CREATE INDEX "campaign_recipients_due_idx" ON "campaign_recipients" ("campaign_id", "status", "next_attempt_at", "id");
--> statement-breakpoint
CREATE INDEX "campaign_recipients_customer_idx" ON "campaign_recipients" ("customer_id");
