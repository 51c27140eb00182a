-- Hand-written (decision record 024-import-speed). New customers are counted in the dashboard's
-- customer rollups ONCE PER STATEMENT instead of once per row.
--
-- The deferred row trigger of 0007 upserted the same rollup row (today, no program) once per inserted
-- customer, all at commit: every upsert of one row in one transaction leaves a version the next must
-- step over, so a transaction inserting n customers cost O(n²) (20,000 rows in one COPY: 23.5 s with
-- it, 2.5 s without). A statement trigger with a transition table sums the statement's new rows by day
-- and upserts each day once. Status and join-day changes keep the deferred row trigger (one row each).
DROP TRIGGER "customers_dashboard_rollups" ON "customers";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_dashboard_rollups" AFTER UPDATE OF "status", "created_at" ON "customers"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "dashboard_rollups_customer_change"();
--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_customers_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "dashboard_customer_rollups" AS r ("day", "program_id", "customers")
	SELECT (n."created_at" AT TIME ZONE "dashboard_time_zone"())::date, NULL, count(*)
	FROM "inserted_customers" n
	WHERE n."status" <> 'erased'
	GROUP BY 1
	ORDER BY 1
	ON CONFLICT ("day", "program_id") DO UPDATE SET "customers" = r."customers" + EXCLUDED."customers";
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "customers_dashboard_rollups_insert" AFTER INSERT ON "customers"
	REFERENCING NEW TABLE AS "inserted_customers" FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_rollups_customers_inserted"();
--> statement-breakpoint
-- Where the file's committed rows end, in bytes: a resumed import reads on from there instead of
-- parsing the rows it has done again (every 60 s chunk of a million-row import did).
ALTER TABLE "imports" ADD COLUMN "processed_bytes" bigint DEFAULT 0 NOT NULL;
