-- Hand-written (issue 27, the card in the customer's phone; decision record 033).
--
-- Programs gain what a wallet pass and the card page show of them: two colours (background and text,
-- `#rrggbb`), a logo (a PNG as a data: URL, small) and the terms printed on the pass's back.
ALTER TABLE "programs" ADD COLUMN "wallet_background_color" text;
--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "wallet_foreground_color" text;
--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "wallet_logo" text;
--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "terms" text;
--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_wallet_colors_check" CHECK (
  ("wallet_background_color" IS NULL OR "wallet_background_color" ~ '^#[0-9a-f]{6}$')
  AND ("wallet_foreground_color" IS NULL OR "wallet_foreground_color" ~ '^#[0-9a-f]{6}$')
  AND ("wallet_logo" IS NULL OR ("wallet_logo" LIKE 'data:image/png;base64,%' AND length("wallet_logo") <= 90000)));
--> statement-breakpoint
-- The customer's card link (`APP_URL/c/<token>`), one per membership. The token is never stored: it
-- is derived from the link secret, the membership and `version` (HMAC-SHA-256), and only its SHA-256
-- is kept to find the membership. "Rigenera link" raises the version; blocking or erasing the
-- customer clears the hash (revoked: the page answers 404) and the next link is a new version.
CREATE TABLE "wallet_card_links" (
  "membership_id" uuid PRIMARY KEY NOT NULL REFERENCES "memberships"("id") ON DELETE CASCADE,
  "version" integer DEFAULT 1 NOT NULL CHECK ("version" >= 1),
  "token_hash" bytea UNIQUE,
  "created_at" timestamp with time zone NOT NULL,
  "revoked_at" timestamp with time zone
);
--> statement-breakpoint
-- The passes issued (Apple's pkpass, Google's loyalty object), one per membership. `state_digest` is
-- what the pass showed when it was last built or synced (balance, stamps, tier, status, the card's
-- code version, names, the program's look): the `wallet.sync` job compares it with the current rows
-- and marks the changed passes updated, with a new tag from the sequence (Apple's `lastUpdated`).
CREATE SEQUENCE "wallet_pass_update_seq";
--> statement-breakpoint
CREATE TABLE "wallet_passes" (
  "membership_id" uuid PRIMARY KEY NOT NULL REFERENCES "memberships"("id") ON DELETE CASCADE,
  "serial_number" uuid UNIQUE NOT NULL DEFAULT gen_random_uuid(),
  "auth_version" integer DEFAULT 1 NOT NULL CHECK ("auth_version" >= 1),
  "state_digest" text,
  "update_tag" bigint NOT NULL DEFAULT nextval('wallet_pass_update_seq'),
  "updated_at" timestamp with time zone NOT NULL,
  "is_voided" boolean DEFAULT false NOT NULL,
  "has_google_object" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_passes_update_tag_idx" ON "wallet_passes" ("update_tag");
--> statement-breakpoint
-- Apple devices registered for a pass's updates (the PassKit web service), with the device's push token.
CREATE TABLE "wallet_registrations" (
  "device_library_id" text NOT NULL CHECK (length("device_library_id") BETWEEN 1 AND 255),
  "serial_number" uuid NOT NULL REFERENCES "wallet_passes"("serial_number") ON DELETE CASCADE,
  "push_token" text NOT NULL CHECK (length("push_token") BETWEEN 1 AND 255),
  "created_at" timestamp with time zone NOT NULL,
  -- Set when the pass is voided (customer blocked or erased): the device may still fetch the voided
  -- pass until then; the sync job deletes the row after it.
  "forget_after" timestamp with time zone,
  PRIMARY KEY ("device_library_id", "serial_number")
);
--> statement-breakpoint
CREATE INDEX "wallet_registrations_serial_idx" ON "wallet_registrations" ("serial_number");
