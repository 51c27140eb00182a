-- Hand-written (decision record 019, "Stripes"). Every rollup row carries a stripe: the writing
-- backend's process id modulo 16. The reads already sum rows, so they need no change.
--
-- Why: the deferred trigger of 0007 made every purchase of a program upsert the SAME row (today,
-- program, merchant, 'earn:purchase') at commit, and a row lock taken at commit is held through the
-- commit's WAL flush. Every purchase of the platform therefore waited for the previous one's flush:
-- 20 raw-SQL writers did 1,008–1,194 purchases/s with the trigger and 1,151–1,751/s without it, in
-- one run (bench/loyalty-bench's anchor SQL). A member's first movement of the day and a new
-- membership likewise moved one shared row per program and day. With stripes, two transactions on
-- different connections update different rows; the sums stay exact (every insert still adds once,
-- in the writer's transaction). `dashboard_rollups_fold` merges past days' stripes back into stripe
-- 0, so the tables stay as small as before.
CREATE FUNCTION "dashboard_rollup_stripe"() RETURNS smallint LANGUAGE sql STABLE AS $$
	SELECT (pg_backend_pid() % 16)::smallint
$$;
--> statement-breakpoint
ALTER TABLE "dashboard_rollups" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "dashboard_rollups" DROP CONSTRAINT "dashboard_rollups_key";
--> statement-breakpoint
ALTER TABLE "dashboard_rollups" ADD CONSTRAINT "dashboard_rollups_key" UNIQUE NULLS NOT DISTINCT ("day", "program_id", "merchant_id", "bucket", "stripe");
--> statement-breakpoint
ALTER TABLE "dashboard_customer_rollups" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "dashboard_customer_rollups" DROP CONSTRAINT "dashboard_customer_rollups_key";
--> statement-breakpoint
ALTER TABLE "dashboard_customer_rollups" ADD CONSTRAINT "dashboard_customer_rollups_key" UNIQUE NULLS NOT DISTINCT ("day", "program_id", "stripe");
--> statement-breakpoint
ALTER TABLE "dashboard_member_rollups" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "dashboard_member_rollups" DROP CONSTRAINT "dashboard_member_rollups_key";
--> statement-breakpoint
ALTER TABLE "dashboard_member_rollups" ADD CONSTRAINT "dashboard_member_rollups_key" UNIQUE NULLS NOT DISTINCT ("program_id", "tier", "stripe");
--> statement-breakpoint
ALTER TABLE "dashboard_activity_rollups" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "dashboard_activity_rollups" DROP CONSTRAINT "dashboard_activity_rollups_key";
--> statement-breakpoint
ALTER TABLE "dashboard_activity_rollups" ADD CONSTRAINT "dashboard_activity_rollups_key" UNIQUE ("day", "program_id", "stripe");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_rollups_add_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	target_bucket text := NEW."kind";
BEGIN
	IF NEW."kind" = 'reversal' THEN
		SELECT 'reversal_' || t."kind" INTO target_bucket FROM "ledger_entries" t WHERE t."id" = NEW."reverses_id";
	END IF;
	target_bucket := target_bucket || ':' || NEW."source";
	INSERT INTO "dashboard_rollups" AS r ("day", "program_id", "merchant_id", "bucket", "stripe", "entries", "points", "stamps", "amount_cents")
	VALUES ((NEW."created_at" AT TIME ZONE "dashboard_time_zone"())::date, NEW."program_id", NEW."merchant_id", target_bucket,
		"dashboard_rollup_stripe"(), 1, NEW."points", NEW."stamps", coalesce(NEW."amount_cents", 0))
	ON CONFLICT ("day", "program_id", "merchant_id", "bucket", "stripe") DO UPDATE SET
		"entries" = r."entries" + 1,
		"points" = r."points" + EXCLUDED."points",
		"stamps" = r."stamps" + EXCLUDED."stamps",
		"amount_cents" = r."amount_cents" + EXCLUDED."amount_cents";
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_customer_rollups_add"(day date, program uuid, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_customer_rollups" AS r ("day", "program_id", "stripe", "customers") VALUES (day, program, "dashboard_rollup_stripe"(), delta)
	ON CONFLICT ("day", "program_id", "stripe") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers"
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_member_rollups_add"(program uuid, member_tier text, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_member_rollups" AS r ("program_id", "tier", "stripe", "members") VALUES (program, member_tier, "dashboard_rollup_stripe"(), delta)
	ON CONFLICT ("program_id", "tier", "stripe") DO UPDATE SET "members" = r."members" + EXCLUDED."members"
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_activity_rollups_add"(at timestamp with time zone, program uuid, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_activity_rollups" AS r ("day", "program_id", "stripe", "members")
	VALUES ((at AT TIME ZONE "dashboard_time_zone"())::date, program, "dashboard_rollup_stripe"(), delta)
	ON CONFLICT ("day", "program_id", "stripe") DO UPDATE SET "members" = r."members" + EXCLUDED."members"
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dashboard_rollups_customers_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "dashboard_customer_rollups" AS r ("day", "program_id", "stripe", "customers")
	SELECT (n."created_at" AT TIME ZONE "dashboard_time_zone"())::date, NULL, "dashboard_rollup_stripe"(), count(*)
	FROM "inserted_customers" n
	WHERE n."status" <> 'erased'
	GROUP BY 1
	ORDER BY 1
	ON CONFLICT ("day", "program_id", "stripe") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers";
	RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Merges the stripes of the days before `before` into stripe 0 (the member rollups have no day: at
-- most 16 rows per program and tier, left as they are). One statement per table: a reader sees the
-- rows before or after, never half. Writers rarely touch a past day (a member's previous activity
-- day, an erased customer's join day); the caller bounds its lock waits (lock_timeout) so that it,
-- not a writer, gives up if they meet.
CREATE FUNCTION "dashboard_rollups_fold"(before date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	folded integer := 0;
	moved integer;
BEGIN
	WITH gone AS (
		DELETE FROM "dashboard_rollups" WHERE "day" < before AND "stripe" <> 0
		RETURNING "day", "program_id", "merchant_id", "bucket", "entries", "points", "stamps", "amount_cents"
	)
	INSERT INTO "dashboard_rollups" AS r ("day", "program_id", "merchant_id", "bucket", "stripe", "entries", "points", "stamps", "amount_cents")
	SELECT "day", "program_id", "merchant_id", "bucket", 0, sum("entries"), sum("points"), sum("stamps"), sum("amount_cents")
	FROM gone GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
	ON CONFLICT ("day", "program_id", "merchant_id", "bucket", "stripe") DO UPDATE SET
		"entries" = r."entries" + EXCLUDED."entries",
		"points" = r."points" + EXCLUDED."points",
		"stamps" = r."stamps" + EXCLUDED."stamps",
		"amount_cents" = r."amount_cents" + EXCLUDED."amount_cents";
	GET DIAGNOSTICS moved = ROW_COUNT;
	folded := folded + moved;
	WITH gone AS (
		DELETE FROM "dashboard_customer_rollups" WHERE "day" < before AND "stripe" <> 0 RETURNING "day", "program_id", "customers"
	)
	INSERT INTO "dashboard_customer_rollups" AS r ("day", "program_id", "stripe", "customers")
	SELECT "day", "program_id", 0, sum("customers") FROM gone GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT ("day", "program_id", "stripe") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers";
	GET DIAGNOSTICS moved = ROW_COUNT;
	folded := folded + moved;
	WITH gone AS (
		DELETE FROM "dashboard_activity_rollups" WHERE "day" < before AND "stripe" <> 0 RETURNING "day", "program_id", "members"
	)
	INSERT INTO "dashboard_activity_rollups" AS r ("day", "program_id", "stripe", "members")
	SELECT "day", "program_id", 0, sum("members") FROM gone GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT ("day", "program_id", "stripe") DO UPDATE SET "members" = r."members" + EXCLUDED."members";
	GET DIAGNOSTICS moved = ROW_COUNT;
	folded := folded + moved;
	RETURN folded;
END;
$$;
