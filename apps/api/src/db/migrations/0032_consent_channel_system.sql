-- Hand-written: the retention purge's withdrawals (decision 022) are the platform's, not a person's at
-- the back-office: their own channel, `system`, which nobody records by hand.
ALTER TABLE "customer_consents" DROP CONSTRAINT "customer_consents_channel_check";
--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_channel_check"
	CHECK ("channel" IN ('counter', 'app', 'web', 'import', 'back-office', 'email_link', 'system'));
--> statement-breakpoint
-- The purge's earlier withdrawals said `back-office`: they are the ones with its notice version and no
-- recorder (a person's withdrawal has a recorder; an erased person's records say `erased`).
UPDATE "customer_consents" SET "channel" = 'system'
	WHERE "channel" = 'back-office' AND "notice_version" = 'retention' AND "recorded_by" IS NULL AND "granted" = false;
