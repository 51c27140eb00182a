-- What a write's rules read about a member's past, summed per member and UTC day (decision 026): the
-- points earned as the tier window counts them (earnings, and the reversals of earnings) and the stamps
-- earned by purchases. A write then reads at most a year of day rows plus the entries of the window's
-- first, partial day, instead of every entry in the window, under the member's lock. UTC days, so the
-- sums do not depend on BUSINESS_TIME_ZONE: the partial first day is read from the entries themselves.
CREATE TABLE "ledger_member_days" (
	"membership_id" uuid NOT NULL,
	"day" date NOT NULL,
	"earned_points" bigint NOT NULL,
	"purchase_stamps" bigint NOT NULL,
	CONSTRAINT "ledger_member_days_pkey" PRIMARY KEY ("membership_id", "day")
);
--> statement-breakpoint
-- One upsert per entry that counts, in the entry's statement (the member's row is locked by then, so
-- the day row is never contended).
CREATE FUNCTION "ledger_member_days_add_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	earned bigint := CASE WHEN NEW."kind" = 'earn' OR (NEW."kind" = 'reversal' AND NEW."source" NOT IN ('manual', 'system')) THEN NEW."points" ELSE 0 END;
	stamped bigint := CASE WHEN NEW."kind" = 'earn' AND NEW."source" = 'purchase' THEN NEW."stamps" ELSE 0 END;
BEGIN
	IF earned <> 0 OR stamped <> 0 THEN
		INSERT INTO "ledger_member_days" AS d ("membership_id", "day", "earned_points", "purchase_stamps")
		VALUES (NEW."membership_id", (NEW."created_at" AT TIME ZONE 'UTC')::date, earned, stamped)
		ON CONFLICT ("membership_id", "day") DO UPDATE SET
			"earned_points" = d."earned_points" + EXCLUDED."earned_points",
			"purchase_stamps" = d."purchase_stamps" + EXCLUDED."purchase_stamps";
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_member_days" AFTER INSERT ON "ledger_entries"
	FOR EACH ROW EXECUTE FUNCTION "ledger_member_days_add_entry"();
--> statement-breakpoint
-- Recomputes the day sums from the entries (this migration's backfill; bulk loads that skip triggers
-- call it after loading). Writers wait meanwhile.
CREATE FUNCTION "ledger_member_days_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	LOCK TABLE "ledger_entries" IN SHARE MODE;
	LOCK TABLE "ledger_member_days" IN EXCLUSIVE MODE;
	DELETE FROM "ledger_member_days";
	INSERT INTO "ledger_member_days" ("membership_id", "day", "earned_points", "purchase_stamps")
	SELECT "membership_id", ("created_at" AT TIME ZONE 'UTC')::date,
		coalesce(sum("points") FILTER (WHERE "kind" = 'earn' OR ("kind" = 'reversal' AND "source" NOT IN ('manual', 'system'))), 0),
		coalesce(sum("stamps") FILTER (WHERE "kind" = 'earn' AND "source" = 'purchase'), 0)
	FROM "ledger_entries"
	WHERE "kind" IN ('earn', 'reversal')
	GROUP BY 1, 2
	HAVING coalesce(sum("points") FILTER (WHERE "kind" = 'earn' OR ("kind" = 'reversal' AND "source" NOT IN ('manual', 'system'))), 0) <> 0
		OR coalesce(sum("stamps") FILTER (WHERE "kind" = 'earn' AND "source" = 'purchase'), 0) <> 0;
END;
$$;
--> statement-breakpoint
SELECT "ledger_member_days_rebuild"();
