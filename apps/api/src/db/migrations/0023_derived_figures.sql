-- Hand-written (issue 25, decision records 019 and 030). Every stored figure that is derived from the
-- ledger or from another table's history gets ONE definition here, as a function that computes it
-- from its sources: the rebuild writes it (dashboard_rollups_rebuild, `npm run ledger:rebuild`) and
-- `npm run ledger:verify` compares the stored rows with it.
--
-- 1. "Active customers" becomes the number of DISTINCT customers with at least one movement in the
--    period (0007 counted memberships whose LATEST movement fell in it, so a longer period could count
--    fewer). Kept exact for any period by one row per activity day and the day before it.
-- 2. Members' tiers, reward stock and consents' current state get a computable definition.

-- What counts as a customer's activity: every movement except those the platform makes on its own
-- (points expiring, birthday and referral bonuses paid by the jobs, system entries).
CREATE FUNCTION "dashboard_counts_as_activity"(kind text, source text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT kind <> 'expire' AND source NOT IN ('birthday', 'referral', 'system')
$$;
--> statement-breakpoint
-- For each scope (a customer across programs: program_id NULL; a membership: its program), one count
-- per activity day and the scope's previous activity day (NULL: none). The distinct customers active
-- in [from, to] are then the activity days d in [from, to] whose previous day is before `from`:
--   sum(customers) where day between from and to and (prev_day is null or prev_day < from)
-- exact for every period, and a longer period can never count fewer.
CREATE TABLE "dashboard_active_rollups" (
	"day" date NOT NULL,
	"prev_day" date,
	"program_id" uuid,
	"stripe" smallint DEFAULT 0 NOT NULL,
	"customers" bigint NOT NULL,
	CONSTRAINT "dashboard_active_rollups_key" UNIQUE NULLS NOT DISTINCT ("program_id", "day", "prev_day", "stripe")
);
--> statement-breakpoint
-- Written from a statement trigger (below), so a row stays locked from the write to its commit, not
-- only during the commit as the deferred rollups: each transaction picks one of 256 stripes by its id,
-- so that two concurrent first movements of the day rarely meet on a row (the fold merges them).
CREATE FUNCTION "dashboard_active_stripe"() RETURNS smallint LANGUAGE sql VOLATILE AS $$
	SELECT (pg_current_xact_id()::text::bigint % 256)::smallint
$$;
--> statement-breakpoint
CREATE FUNCTION "dashboard_active_rollups_add"(activity_day date, previous_day date, program uuid, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_active_rollups" AS r ("day", "prev_day", "program_id", "stripe", "customers")
	VALUES (activity_day, previous_day, program, "dashboard_active_stripe"(), delta)
	ON CONFLICT ("program_id", "day", "prev_day", "stripe") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers"
$$;
--> statement-breakpoint
-- A scope's new activity day: after its previous day, and before the next one if an entry was
-- back-dated (the next day then follows this one instead of the previous).
CREATE FUNCTION "dashboard_active_day_add"(program uuid, activity_day date, previous_day date, next_day date)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "dashboard_active_rollups_add"(activity_day, previous_day, program, 1);
	IF next_day IS NOT NULL THEN
		PERFORM "dashboard_active_rollups_add"(next_day, previous_day, program, -1);
		PERFORM "dashboard_active_rollups_add"(next_day, activity_day, program, 1);
	END IF;
END;
$$;
--> statement-breakpoint
-- Once per INSERT statement on the ledger, with the statement's rows: for each member, then its
-- customer (once per customer and day), and each business day of their new activity, ascending: the
-- scope's latest activity before the end of that day that was counted before tells both whether the
-- day is already active (nothing to do: the common case of a second movement that day) and, if not,
-- which day comes before it. "Counted before" = visible and not of this statement (committed by others,
-- or written by an earlier statement of this transaction, whose trigger has run), or of this statement
-- on an earlier day (added above, ascending). A member already active that day means its customer is
-- too. Two transactions writing the same customer take its advisory lock, held to commit, so the
-- second sees the first's entries.
CREATE FUNCTION "dashboard_active_entries_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	zone text := "dashboard_time_zone"();
	r record;
	day_start timestamptz;
	day_end timestamptz;
	latest timestamptz;
	next_at timestamptz;
	last_customer uuid;
	last_day date;
BEGIN
	FOR r IN
		SELECT DISTINCT n."customer_id", n."membership_id", n."program_id", (n."created_at" AT TIME ZONE zone)::date AS "day"
		FROM "new_entries" n
		WHERE "dashboard_counts_as_activity"(n."kind", n."source")
		ORDER BY 1, 4, 2
	LOOP
		day_start := r."day"::timestamp AT TIME ZONE zone;
		day_end := (r."day" + 1)::timestamp AT TIME ZONE zone;
		PERFORM pg_advisory_xact_lock(25, hashtext(r."customer_id"::text));
		SELECT e."created_at" INTO latest FROM "ledger_entries" e
		WHERE e."membership_id" = r."membership_id" AND e."created_at" < day_end AND "dashboard_counts_as_activity"(e."kind", e."source")
			AND (e."created_at" < day_start OR NOT EXISTS (SELECT 1 FROM "new_entries" n WHERE n."id" = e."id"))
		ORDER BY e."created_at" DESC LIMIT 1;
		-- The member already active that day (its second movement of the day): so is its customer.
		CONTINUE WHEN latest >= day_start;
		SELECT min(e."created_at") INTO next_at FROM "ledger_entries" e
		WHERE e."membership_id" = r."membership_id" AND e."created_at" >= day_end AND "dashboard_counts_as_activity"(e."kind", e."source")
			AND NOT EXISTS (SELECT 1 FROM "new_entries" n WHERE n."id" = e."id");
		PERFORM "dashboard_active_day_add"(r."program_id", r."day", (latest AT TIME ZONE zone)::date, (next_at AT TIME ZONE zone)::date);
		-- The customer, once per customer and day of the statement.
		CONTINUE WHEN last_customer IS NOT DISTINCT FROM r."customer_id" AND last_day IS NOT DISTINCT FROM r."day";
		last_customer := r."customer_id";
		last_day := r."day";
		SELECT e."created_at" INTO latest FROM "ledger_entries" e
		WHERE e."customer_id" = r."customer_id" AND e."created_at" < day_end AND "dashboard_counts_as_activity"(e."kind", e."source")
			AND (e."created_at" < day_start OR NOT EXISTS (SELECT 1 FROM "new_entries" n WHERE n."id" = e."id"))
		ORDER BY e."created_at" DESC LIMIT 1;
		CONTINUE WHEN latest >= day_start;
		SELECT min(e."created_at") INTO next_at FROM "ledger_entries" e
		WHERE e."customer_id" = r."customer_id" AND e."created_at" >= day_end AND "dashboard_counts_as_activity"(e."kind", e."source")
			AND NOT EXISTS (SELECT 1 FROM "new_entries" n WHERE n."id" = e."id");
		PERFORM "dashboard_active_day_add"(NULL, r."day", (latest AT TIME ZONE zone)::date, (next_at AT TIME ZONE zone)::date);
	END LOOP;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_dashboard_active" AFTER INSERT ON "ledger_entries"
	REFERENCING NEW TABLE AS "new_entries" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_active_entries_inserted"();
--> statement-breakpoint
-- The membership trigger keeps the new members by day and the tier mix; the latest-activity rollup
-- (dashboard_activity_rollups) is replaced by the one above.
CREATE OR REPLACE FUNCTION "dashboard_rollups_membership_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM "dashboard_customer_rollups_add"((NEW."joined_at" AT TIME ZONE "dashboard_time_zone"())::date, NEW."program_id", 1);
		PERFORM "dashboard_member_rollups_add"(NEW."program_id", NEW."tier", 1);
		RETURN NULL;
	END IF;
	IF OLD."tier" IS DISTINCT FROM NEW."tier" THEN
		PERFORM "dashboard_member_rollups_add"(OLD."program_id", OLD."tier", -1);
		PERFORM "dashboard_member_rollups_add"(NEW."program_id", NEW."tier", 1);
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "memberships_dashboard_rollups" ON "memberships";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "memberships_dashboard_rollups" AFTER INSERT OR UPDATE OF "tier" ON "memberships"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "dashboard_rollups_membership_change"();
--> statement-breakpoint
DROP TABLE "dashboard_activity_rollups";
--> statement-breakpoint
DROP FUNCTION "dashboard_activity_rollups_add"(timestamp with time zone, uuid, integer);
--> statement-breakpoint
-- ---- What each rollup should hold, computed from its sources (rebuild and ledger:verify) ----------
-- A reversal's bucket names the kind it reverses: looked up by primary key for the reversals only (a
-- join of the ledger with itself would hash every entry's id).
CREATE FUNCTION "dashboard_rollups_computed"(zone text)
RETURNS TABLE ("day" date, "program_id" uuid, "merchant_id" uuid, "bucket" text, "entries" bigint, "points" bigint, "stamps" bigint, "amount_cents" bigint)
LANGUAGE sql STABLE AS $$
	SELECT (e."created_at" AT TIME ZONE zone)::date, e."program_id", e."merchant_id",
		CASE WHEN e."kind" = 'reversal' THEN 'reversal_' || (SELECT t."kind" FROM "ledger_entries" t WHERE t."id" = e."reverses_id") ELSE e."kind" END
			|| ':' || e."source",
		count(*), sum(e."points"), sum(e."stamps"), coalesce(sum(e."amount_cents"), 0)
	FROM "ledger_entries" e
	GROUP BY 1, 2, 3, 4
$$;
--> statement-breakpoint
CREATE FUNCTION "dashboard_customer_rollups_computed"(zone text)
RETURNS TABLE ("day" date, "program_id" uuid, "customers" bigint) LANGUAGE sql STABLE AS $$
	SELECT ("created_at" AT TIME ZONE zone)::date, NULL::uuid, count(*) FROM "customers" WHERE "status" <> 'erased' GROUP BY 1
	UNION ALL
	SELECT ("joined_at" AT TIME ZONE zone)::date, "program_id", count(*) FROM "memberships" GROUP BY 1, 2
$$;
--> statement-breakpoint
CREATE FUNCTION "dashboard_member_rollups_computed"()
RETURNS TABLE ("program_id" uuid, "tier" text, "members" bigint) LANGUAGE sql STABLE AS $$
	SELECT "program_id", "tier", count(*) FROM "memberships" GROUP BY 1, 2
$$;
--> statement-breakpoint
-- Optionally for the customers whose id is in [lo, hi) only (the verifier sums sixteen such slices, each
-- sorted in memory, instead of sorting ten million entries at once). The entries are read through their
-- members (the member index carries kind and source: no heap read).
CREATE FUNCTION "dashboard_active_rollups_computed"(zone text, lo uuid DEFAULT NULL, hi uuid DEFAULT NULL)
RETURNS TABLE ("day" date, "prev_day" date, "program_id" uuid, "customers" bigint) LANGUAGE sql STABLE AS $$
	WITH "active" AS (
		SELECT DISTINCT m."customer_id", e."membership_id", m."program_id", (e."created_at" AT TIME ZONE zone)::date AS "day"
		FROM "memberships" m JOIN "ledger_entries" e ON e."membership_id" = m."id"
		WHERE (lo IS NULL OR m."customer_id" >= lo) AND (hi IS NULL OR m."customer_id" < hi)
			AND "dashboard_counts_as_activity"(e."kind", e."source"))
	SELECT d."day", d."prev_day", d."program_id", count(*) FROM (
		SELECT a."day", lag(a."day") OVER (PARTITION BY a."membership_id" ORDER BY a."day") AS "prev_day", a."program_id"
		FROM "active" a
		UNION ALL
		SELECT c."day", lag(c."day") OVER (PARTITION BY c."customer_id" ORDER BY c."day"), NULL::uuid
		FROM (SELECT DISTINCT "customer_id", "day" FROM "active") c
	) d GROUP BY 1, 2, 3
$$;
--> statement-breakpoint
-- Optionally for the members whose id is in [lo, hi) only (read from the member index alone).
CREATE FUNCTION "ledger_member_days_computed"(lo uuid DEFAULT NULL, hi uuid DEFAULT NULL)
RETURNS TABLE ("membership_id" uuid, "day" date, "earned_points" bigint, "purchase_stamps" bigint) LANGUAGE sql STABLE AS $$
	SELECT "membership_id", ("created_at" AT TIME ZONE 'UTC')::date,
		coalesce(sum("points") FILTER (WHERE "kind" = 'earn' OR ("kind" = 'reversal' AND "source" NOT IN ('manual', 'system'))), 0),
		coalesce(sum("stamps") FILTER (WHERE "kind" = 'earn' AND "source" = 'purchase'), 0)
	FROM "ledger_entries"
	WHERE "kind" IN ('earn', 'reversal') AND (lo IS NULL OR "membership_id" >= lo) AND (hi IS NULL OR "membership_id" < hi)
	GROUP BY 1, 2
	HAVING coalesce(sum("points") FILTER (WHERE "kind" = 'earn' OR ("kind" = 'reversal' AND "source" NOT IN ('manual', 'system'))), 0) <> 0
		OR coalesce(sum("stamps") FILTER (WHERE "kind" = 'earn' AND "source" = 'purchase'), 0) <> 0
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_member_days_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	LOCK TABLE "ledger_entries" IN SHARE MODE;
	LOCK TABLE "ledger_member_days" IN EXCLUSIVE MODE;
	DELETE FROM "ledger_member_days";
	INSERT INTO "ledger_member_days" ("membership_id", "day", "earned_points", "purchase_stamps")
	SELECT * FROM "ledger_member_days_computed"();
END;
$$;
--> statement-breakpoint
-- Recomputes every rollup from the source tables in the given zone. Writers wait meanwhile (SHARE on
-- the sources): nothing is counted twice or missed.
CREATE OR REPLACE FUNCTION "dashboard_rollups_rebuild"(zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	LOCK TABLE "ledger_entries", "customers", "memberships" IN SHARE MODE;
	LOCK TABLE "dashboard_rollup_settings", "dashboard_rollups", "dashboard_customer_rollups", "dashboard_member_rollups", "dashboard_active_rollups" IN EXCLUSIVE MODE;
	UPDATE "dashboard_rollup_settings" SET "time_zone" = zone;
	DELETE FROM "dashboard_rollups";
	DELETE FROM "dashboard_customer_rollups";
	DELETE FROM "dashboard_member_rollups";
	DELETE FROM "dashboard_active_rollups";
	INSERT INTO "dashboard_rollups" ("day", "program_id", "merchant_id", "bucket", "entries", "points", "stamps", "amount_cents")
	SELECT * FROM "dashboard_rollups_computed"(zone);
	INSERT INTO "dashboard_customer_rollups" ("day", "program_id", "customers") SELECT * FROM "dashboard_customer_rollups_computed"(zone);
	INSERT INTO "dashboard_member_rollups" ("program_id", "tier", "members") SELECT * FROM "dashboard_member_rollups_computed"();
	INSERT INTO "dashboard_active_rollups" ("day", "prev_day", "program_id", "customers") SELECT * FROM "dashboard_active_rollups_computed"(zone);
END;
$$;
--> statement-breakpoint
-- The fold of 0016, with the active rollups in place of the latest-activity ones.
CREATE OR REPLACE FUNCTION "dashboard_rollups_fold"(before date) RETURNS integer LANGUAGE plpgsql AS $$
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
		DELETE FROM "dashboard_active_rollups" WHERE "day" < before AND "stripe" <> 0 RETURNING "day", "prev_day", "program_id", "customers"
	)
	INSERT INTO "dashboard_active_rollups" AS r ("day", "prev_day", "program_id", "stripe", "customers")
	SELECT "day", "prev_day", "program_id", 0, sum("customers") FROM gone GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
	ON CONFLICT ("program_id", "day", "prev_day", "stripe") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers";
	GET DIAGNOSTICS moved = ROW_COUNT;
	folded := folded + moved;
	RETURN folded;
END;
$$;
--> statement-breakpoint
-- ---- Members' tiers: the ledger service's rule (ledger.rules.ts tierWindowStart, tierFor) in SQL --
-- A member's tier is computed at each of its movements, over the window as it stood then: so the
-- stored tier must equal the rule applied at the member's latest movement (last_activity_at).
CREATE FUNCTION "ledger_tier_window_start"(tier_window text, at timestamp with time zone, zone text) RETURNS timestamp with time zone
LANGUAGE sql STABLE AS $$
	SELECT (CASE
		WHEN tier_window = 'calendarYear' THEN date_trunc('year', at AT TIME ZONE zone)::date
		-- 29 February has no twin a year before: the window starts on 1 March.
		WHEN to_char(at AT TIME ZONE zone, 'MM-DD') = '02-29' THEN make_date(extract(year FROM at AT TIME ZONE zone)::int - 1, 3, 1)
		ELSE ((at AT TIME ZONE zone)::date - interval '1 year')::date
	END)::timestamp AT TIME ZONE zone
$$;
--> statement-breakpoint
-- The highest tier whose minimum the points reach (the later one among equal minimums), never below
-- the manual floor; NULL when the program has no tiers.
CREATE FUNCTION "ledger_tier_for"(tiers jsonb, earned bigint, tier_floor text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT s."name" FROM (
		SELECT t ->> 'name' AS "name", (t ->> 'minPoints')::numeric AS "min", (t ->> 'minPoints')::numeric <= earned AS "reached", o
		FROM jsonb_array_elements(tiers) WITH ORDINALITY AS x(t, o)) s
	WHERE s."reached" OR s."name" = tier_floor
	ORDER BY s."min" DESC, s."reached" DESC, s.o DESC
	LIMIT 1
$$;
--> statement-breakpoint
-- The tier every member that has moved should have (program_id NULL: all programs).
CREATE FUNCTION "ledger_expected_tiers"(zone text, program uuid DEFAULT NULL)
RETURNS TABLE ("membership_id" uuid, "tier" text) LANGUAGE sql STABLE AS $$
	SELECT m."id", "ledger_tier_for"(p."tiers", coalesce(e."earned", 0), m."tier_floor")
	FROM "memberships" m
	JOIN "programs" p ON p."id" = m."program_id"
	LEFT JOIN LATERAL (
		SELECT sum(l."points") AS "earned" FROM "ledger_entries" l
		WHERE l."membership_id" = m."id" AND l."created_at" >= "ledger_tier_window_start"(p."tier_window", m."last_activity_at", zone)
			AND (l."kind" = 'earn' OR (l."kind" = 'reversal' AND l."source" NOT IN ('manual', 'system')))) e ON true
	WHERE m."last_activity_at" IS NOT NULL AND (program IS NULL OR m."program_id" = program)
$$;
--> statement-breakpoint
-- Sets every moved member of a program (NULL: all) to the tier its rules give; answers how many changed.
-- The program's update calls it when the tiers or their window change.
CREATE FUNCTION "ledger_retier"(zone text, program uuid DEFAULT NULL) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	changed integer;
BEGIN
	UPDATE "memberships" m SET "tier" = x."tier", "version" = m."version" + 1
	FROM "ledger_expected_tiers"(zone, program) x
	WHERE x."membership_id" = m."id" AND m."tier" IS DISTINCT FROM x."tier";
	GET DIAGNOSTICS changed = ROW_COUNT;
	RETURN changed;
END;
$$;
--> statement-breakpoint
-- ---- Reward stock ---------------------------------------------------------------------------------
-- `stock` counts redemptions left (decision 015). `stock_total` is what staff made available: the
-- stock they set plus the redemptions already counted then. So, for every reward with a stock:
--   stock = stock_total - (vouchers issued by a redemption and not void)
-- A redemption takes one; voiding a redemption's voucher gives it back.
ALTER TABLE "rewards" ADD COLUMN "stock_total" integer;
--> statement-breakpoint
UPDATE "rewards" r SET "stock_total" = r."stock" + (
	SELECT count(*) FROM "vouchers" v WHERE v."reward_id" = r."id" AND v."entry_id" IS NOT NULL AND v."status" <> 'void')
WHERE r."stock" IS NOT NULL;
--> statement-breakpoint
-- A reward written without it (a seed, a test) starts with what it has.
CREATE FUNCTION "rewards_stock_total_default"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW."stock_total" := coalesce(NEW."stock_total", NEW."stock");
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "rewards_stock_total_default" BEFORE INSERT ON "rewards" FOR EACH ROW EXECUTE FUNCTION "rewards_stock_total_default"();
--> statement-breakpoint
-- ---- The nightly check's findings (the dashboard's "Integrità dei dati" notice) ----------------------
-- One row per kind of figure that the latest check found wrong: since when, and a few examples.
CREATE TABLE "ledger_integrity_findings" (
	"figure" text PRIMARY KEY,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"problems" integer NOT NULL,
	"examples" jsonb NOT NULL
);
--> statement-breakpoint
SELECT "dashboard_rollups_rebuild"("dashboard_time_zone"());
