-- Hand-written (issue 28, service e-mails): the welcome, voucher, birthday and expiring-points
-- messages, each program's texts for them, and one row per message sent (the message log).

-- Per program and kind: on or off, and the texts (Italian and English) with {{placeholders}}. No
-- row means "off, default texts".
CREATE TABLE "service_email_settings" (
	"program_id" uuid NOT NULL REFERENCES "programs" ("id") ON DELETE CASCADE,
	"kind" text NOT NULL
		CONSTRAINT "service_email_settings_kind_check" CHECK ("kind" IN ('welcome', 'voucher', 'birthday', 'expiring')),
	"is_enabled" boolean NOT NULL DEFAULT false,
	"subject_it" text NOT NULL,
	"body_it" text NOT NULL,
	"subject_en" text NOT NULL,
	"body_en" text NOT NULL,
	"version" integer NOT NULL DEFAULT 1,
	"updated_at" timestamp with time zone NOT NULL DEFAULT now(),
	CONSTRAINT "service_email_settings_pkey" PRIMARY KEY ("program_id", "kind")
);
--> statement-breakpoint
-- One row per service message, written in the transaction of the event that causes it (a customer
-- created, a voucher issued …) and sent later by a job: queued → sending (claimed BEFORE the SMTP
-- exchange, decision record 034) → sent | failed | queued again (temporary failure); queued → skipped
-- (no service consent, no address, blocked or erased at sending time). A row still `sending` after
-- its claim ran out becomes `unknown` and is never retried by itself. The dedupe key makes each
-- message once ever (e.g. `welcome:<customer>:<program>`, `expiring:<membership>:<yyyy-mm>`).
CREATE TABLE "service_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL REFERENCES "customers" ("id") ON DELETE CASCADE,
	"program_id" uuid REFERENCES "programs" ("id") ON DELETE SET NULL,
	"kind" text NOT NULL
		CONSTRAINT "service_messages_kind_check" CHECK ("kind" IN ('welcome', 'voucher', 'birthday', 'expiring')),
	"dedupe_key" text NOT NULL,
	-- The event's own values (voucher code, points, dates), filled into the texts at sending time.
	"facts" jsonb NOT NULL DEFAULT '{}'::jsonb,
	"language" text NOT NULL DEFAULT 'it',
	-- What was sent (null until then; null again after erasure).
	"email" text,
	"subject" text,
	"body_text" text,
	"status" text NOT NULL DEFAULT 'queued'
		CONSTRAINT "service_messages_status_check" CHECK ("status" IN ('queued', 'sending', 'sent', 'failed', 'skipped', 'unknown')),
	"attempts" integer NOT NULL DEFAULT 0,
	"next_attempt_at" timestamp with time zone NOT NULL DEFAULT now(),
	"claim_id" uuid,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL DEFAULT now(),
	-- The preferences page's secret (/u/<token>, as a campaign recipient's).
	"token" text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
	CONSTRAINT "service_messages_dedupe_key" UNIQUE ("dedupe_key"),
	CONSTRAINT "service_messages_token_key" UNIQUE ("token")
);
--> statement-breakpoint
CREATE INDEX "service_messages_customer_idx" ON "service_messages" ("customer_id");
