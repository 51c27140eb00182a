-- Hand-written (issue 30, the security review; decision record 030 and docs/security.md).
--
-- H1: each card's presence code is derived from the customer's id and this version (HMAC under
-- CARD_CODE_SECRET); staff raise the version when a card is lost or copied, and the old code stops
-- working at once.
ALTER TABLE "customers" ADD COLUMN "card_code_version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_card_code_version_check" CHECK ("card_code_version" >= 1);
--> statement-breakpoint
-- H1: new card numbers are random (279 + 9 random digits + Luhn), drawn in the app with
-- crypto.randomInt; an import's dry run draws them with the row's referral code. Rows staged before
-- this migration take theirs from the old sequence one last time, then the sequence goes.
ALTER TABLE "import_staged_customers" ADD COLUMN "card_number" text;
--> statement-breakpoint
UPDATE "import_staged_customers" SET "card_number" = card_number_for(nextval('customer_card_seq'));
--> statement-breakpoint
ALTER TABLE "import_staged_customers" ALTER COLUMN "card_number" SET NOT NULL;
--> statement-breakpoint
DROP FUNCTION "card_number_for"(bigint);
--> statement-breakpoint
DROP SEQUENCE "customer_card_seq";
--> statement-breakpoint
-- M3 and the uploads' Low finding: each upload says what it is for, and a proof screenshot sent with
-- an API key says which key sent it, so a proof may reference only a screenshot its own key uploaded
-- for a proof, an erasure deletes only proof screenshots, a per-key quota counts a key's pending
-- screenshots and a daily job deletes the ones no proof took.
ALTER TABLE "uploads" ADD COLUMN "purpose" text;
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_purpose_check" CHECK ("purpose" IN ('cover', 'reward', 'proof'));
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "api_key_id" uuid REFERENCES "api_keys"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX "uploads_api_key_idx" ON "uploads" ("api_key_id") WHERE "api_key_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "social_proofs_image_idx" ON "social_proofs" ("image_id") WHERE "image_id" IS NOT NULL;
--> statement-breakpoint
UPDATE "uploads" SET "purpose" = 'cover' WHERE "id" IN (SELECT "cover_image_id" FROM "news_posts" WHERE "cover_image_id" IS NOT NULL);
--> statement-breakpoint
UPDATE "uploads" SET "purpose" = 'reward' WHERE "purpose" IS NULL AND "id" IN (SELECT "image_id" FROM "rewards" WHERE "image_id" IS NOT NULL);
--> statement-breakpoint
UPDATE "uploads" SET "purpose" = 'proof' WHERE "purpose" IS NULL AND "id" IN (SELECT "image_id" FROM "social_proofs" WHERE "image_id" IS NOT NULL);
--> statement-breakpoint
-- M2: an erasure blanks the free-text reasons of the person's ledger entries (a till's receipt text,
-- a staff note may name or reach the person). The ledger stays append-only for everything else: the
-- one update allowed sets `reason` to NULL and changes nothing else, and only in a transaction that
-- declared itself an erasure (`set_config('sf.erasure', 'on', true)`, privacy.repository.ts).
CREATE OR REPLACE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND current_setting('sf.erasure', true) = 'on' AND NEW."reason" IS NULL
		AND (to_jsonb(NEW) - 'reason') = (to_jsonb(OLD) - 'reason') THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP USING ERRCODE = 'P0001';
END;
$$;
