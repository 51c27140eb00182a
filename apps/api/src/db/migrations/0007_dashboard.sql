-- Dashboard rollups (decision record 019-dashboard-rollups). The ledger stays the source of truth;
-- these tables are sums of it, kept in the same transaction as each insert by triggers, so the
-- dashboard reads a few thousand rows instead of millions of entries.
--
-- Days are business days (BUSINESS_TIME_ZONE); the zone the rollups were built with is stored here,
-- and the app rebuilds them (dashboard_rollups_rebuild) when it starts with another zone.
CREATE TABLE "dashboard_rollup_settings" (
	"id" boolean PRIMARY KEY DEFAULT true CONSTRAINT "dashboard_rollup_settings_one_row" CHECK ("id"),
	"time_zone" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "dashboard_rollup_settings" ("time_zone") VALUES ('Europe/Rome');
--> statement-breakpoint
-- One row per business day × program × merchant (NULL: none) × bucket. The bucket is the entry's
-- kind (for a reversal 'reversal_' || the kind of the entry it reverses) || ':' || its source, so
-- that "points issued" (earnings net of their reversals), "points redeemed" and "purchases" can be
-- told apart without reading the ledger.
CREATE TABLE "dashboard_rollups" (
	"day" date NOT NULL,
	"program_id" uuid NOT NULL,
	"merchant_id" uuid,
	"bucket" text NOT NULL,
	"entries" bigint NOT NULL,
	"points" bigint NOT NULL,
	"stamps" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "dashboard_rollups_key" UNIQUE NULLS NOT DISTINCT ("day", "program_id", "merchant_id", "bucket")
);
--> statement-breakpoint
CREATE INDEX "dashboard_rollups_program_day_idx" ON "dashboard_rollups" ("program_id", "day");
--> statement-breakpoint
CREATE INDEX "dashboard_rollups_merchant_day_idx" ON "dashboard_rollups" ("merchant_id", "day");
--> statement-breakpoint
-- Customers by the day they joined: program_id NULL counts customers (not erased), a program's
-- rows count its memberships.
CREATE TABLE "dashboard_customer_rollups" (
	"day" date NOT NULL,
	"program_id" uuid,
	"customers" bigint NOT NULL,
	CONSTRAINT "dashboard_customer_rollups_key" UNIQUE NULLS NOT DISTINCT ("day", "program_id")
);
--> statement-breakpoint
CREATE FUNCTION "dashboard_time_zone"() RETURNS text LANGUAGE sql STABLE AS $$
	SELECT "time_zone" FROM "dashboard_rollup_settings"
$$;
--> statement-breakpoint
-- One upsert per ledger entry. A deferred constraint trigger: it runs at commit, so the rollup row
-- (shared by every till of a merchant on one day) stays locked only for the end of the transaction.
CREATE FUNCTION "dashboard_rollups_add_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	target_bucket text := NEW."kind";
BEGIN
	IF NEW."kind" = 'reversal' THEN
		SELECT 'reversal_' || t."kind" INTO target_bucket FROM "ledger_entries" t WHERE t."id" = NEW."reverses_id";
	END IF;
	target_bucket := target_bucket || ':' || NEW."source";
	INSERT INTO "dashboard_rollups" AS r ("day", "program_id", "merchant_id", "bucket", "entries", "points", "stamps", "amount_cents")
	VALUES ((NEW."created_at" AT TIME ZONE "dashboard_time_zone"())::date, NEW."program_id", NEW."merchant_id", target_bucket,
		1, NEW."points", NEW."stamps", coalesce(NEW."amount_cents", 0))
	ON CONFLICT ("day", "program_id", "merchant_id", "bucket") DO UPDATE SET
		"entries" = r."entries" + 1,
		"points" = r."points" + EXCLUDED."points",
		"stamps" = r."stamps" + EXCLUDED."stamps",
		"amount_cents" = r."amount_cents" + EXCLUDED."amount_cents";
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entries_dashboard_rollups" AFTER INSERT ON "ledger_entries"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "dashboard_rollups_add_entry"();
--> statement-breakpoint
CREATE FUNCTION "dashboard_customer_rollups_add"(day date, program uuid, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_customer_rollups" AS r ("day", "program_id", "customers") VALUES (day, program, delta)
	ON CONFLICT ("day", "program_id") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers"
$$;
--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_customer_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	was integer := CASE WHEN TG_OP = 'UPDATE' AND OLD."status" <> 'erased' THEN 1 ELSE 0 END;
	now_counted integer := CASE WHEN NEW."status" <> 'erased' THEN 1 ELSE 0 END;
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."created_at" <> NEW."created_at" THEN
		PERFORM "dashboard_customer_rollups_add"((OLD."created_at" AT TIME ZONE "dashboard_time_zone"())::date, NULL, -was);
		was := 0;
	END IF;
	IF now_counted <> was THEN
		PERFORM "dashboard_customer_rollups_add"((NEW."created_at" AT TIME ZONE "dashboard_time_zone"())::date, NULL, now_counted - was);
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_dashboard_rollups" AFTER INSERT OR UPDATE OF "status", "created_at" ON "customers"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "dashboard_rollups_customer_change"();
--> statement-breakpoint
-- Members by tier now, and by the day of their latest movement ("active in the period"): both
-- change only when a membership's tier or its day of latest activity changes.
CREATE TABLE "dashboard_member_rollups" (
	"program_id" uuid NOT NULL,
	"tier" text,
	"members" bigint NOT NULL,
	CONSTRAINT "dashboard_member_rollups_key" UNIQUE NULLS NOT DISTINCT ("program_id", "tier")
);
--> statement-breakpoint
CREATE TABLE "dashboard_activity_rollups" (
	"day" date NOT NULL,
	"program_id" uuid NOT NULL,
	"members" bigint NOT NULL,
	CONSTRAINT "dashboard_activity_rollups_key" UNIQUE ("day", "program_id")
);
--> statement-breakpoint
CREATE FUNCTION "dashboard_member_rollups_add"(program uuid, member_tier text, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_member_rollups" AS r ("program_id", "tier", "members") VALUES (program, member_tier, delta)
	ON CONFLICT ("program_id", "tier") DO UPDATE SET "members" = r."members" + EXCLUDED."members"
$$;
--> statement-breakpoint
CREATE FUNCTION "dashboard_activity_rollups_add"(at timestamp with time zone, program uuid, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "dashboard_activity_rollups" AS r ("day", "program_id", "members")
	VALUES ((at AT TIME ZONE "dashboard_time_zone"())::date, program, delta)
	ON CONFLICT ("day", "program_id") DO UPDATE SET "members" = r."members" + EXCLUDED."members"
$$;
--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_membership_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		PERFORM "dashboard_customer_rollups_add"((NEW."joined_at" AT TIME ZONE "dashboard_time_zone"())::date, NEW."program_id", 1);
		PERFORM "dashboard_member_rollups_add"(NEW."program_id", NEW."tier", 1);
		IF NEW."last_activity_at" IS NOT NULL THEN
			PERFORM "dashboard_activity_rollups_add"(NEW."last_activity_at", NEW."program_id", 1);
		END IF;
		RETURN NULL;
	END IF;
	IF OLD."tier" IS DISTINCT FROM NEW."tier" THEN
		PERFORM "dashboard_member_rollups_add"(OLD."program_id", OLD."tier", -1);
		PERFORM "dashboard_member_rollups_add"(NEW."program_id", NEW."tier", 1);
	END IF;
	IF (OLD."last_activity_at" AT TIME ZONE "dashboard_time_zone"())::date IS DISTINCT FROM (NEW."last_activity_at" AT TIME ZONE "dashboard_time_zone"())::date THEN
		IF OLD."last_activity_at" IS NOT NULL THEN
			PERFORM "dashboard_activity_rollups_add"(OLD."last_activity_at", OLD."program_id", -1);
		END IF;
		IF NEW."last_activity_at" IS NOT NULL THEN
			PERFORM "dashboard_activity_rollups_add"(NEW."last_activity_at", NEW."program_id", 1);
		END IF;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "memberships_dashboard_rollups" AFTER INSERT OR UPDATE OF "tier", "last_activity_at" ON "memberships"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "dashboard_rollups_membership_change"();
--> statement-breakpoint
-- Recomputes every rollup from the source tables in the given zone (the migration's backfill; the
-- app calls it when BUSINESS_TIME_ZONE changed). Writers wait meanwhile: nothing is counted twice.
CREATE FUNCTION "dashboard_rollups_rebuild"(zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	LOCK TABLE "ledger_entries", "customers", "memberships" IN SHARE MODE;
	LOCK TABLE "dashboard_rollup_settings", "dashboard_rollups", "dashboard_customer_rollups", "dashboard_member_rollups", "dashboard_activity_rollups" IN EXCLUSIVE MODE;
	UPDATE "dashboard_rollup_settings" SET "time_zone" = zone;
	DELETE FROM "dashboard_rollups";
	DELETE FROM "dashboard_customer_rollups";
	DELETE FROM "dashboard_member_rollups";
	DELETE FROM "dashboard_activity_rollups";
	INSERT INTO "dashboard_rollups" ("day", "program_id", "merchant_id", "bucket", "entries", "points", "stamps", "amount_cents")
	SELECT (e."created_at" AT TIME ZONE zone)::date, e."program_id", e."merchant_id",
		CASE WHEN e."kind" = 'reversal' THEN 'reversal_' || t."kind" ELSE e."kind" END || ':' || e."source",
		count(*), sum(e."points"), sum(e."stamps"), coalesce(sum(e."amount_cents"), 0)
	FROM "ledger_entries" e LEFT JOIN "ledger_entries" t ON t."id" = e."reverses_id"
	GROUP BY 1, 2, 3, 4;
	INSERT INTO "dashboard_customer_rollups" ("day", "program_id", "customers")
	SELECT ("created_at" AT TIME ZONE zone)::date, NULL::uuid, count(*) FROM "customers" WHERE "status" <> 'erased' GROUP BY 1;
	INSERT INTO "dashboard_customer_rollups" ("day", "program_id", "customers")
	SELECT ("joined_at" AT TIME ZONE zone)::date, "program_id", count(*) FROM "memberships" GROUP BY 1, 2;
	INSERT INTO "dashboard_member_rollups" ("program_id", "tier", "members")
	SELECT "program_id", "tier", count(*) FROM "memberships" GROUP BY 1, 2;
	INSERT INTO "dashboard_activity_rollups" ("day", "program_id", "members")
	SELECT ("last_activity_at" AT TIME ZONE zone)::date, "program_id", count(*) FROM "memberships"
	WHERE "last_activity_at" IS NOT NULL GROUP BY 1, 2;
END;
$$;
--> statement-breakpoint
SELECT "dashboard_rollups_rebuild"('Europe/Rome');
