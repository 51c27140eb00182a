-- Issue 6: identity and session hardening (hand-written).
-- Self-registered accounts confirm their address by a single-use link before an admin may approve them;
-- accounts that exist already (seeded, created by the CLI or an admin) count as confirmed.
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
-- The single-use links (reset, address confirmation) share one table, told apart by their purpose.
ALTER TABLE "password_reset_tokens" ADD COLUMN "purpose" text DEFAULT 'password_reset' NOT NULL;--> statement-breakpoint
-- A used refresh token keeps its successor, encrypted with a key only the used token's holder can
-- derive, so that a second refresh within the grace window (two tabs) gets the same successor.
ALTER TABLE "refresh_tokens" ADD COLUMN "successor_sealed" text;--> statement-breakpoint
-- The per-user upload quota sums an uploader's files.
CREATE INDEX "uploads_uploaded_by_idx" ON "uploads" USING btree ("uploaded_by");
