-- Hand-written (decision record 024-import-speed-and-flat-exports). The dry run keeps each checked,
-- normalised customer row here; the import job then inserts set-based from it (one statement of
-- data-modifying CTEs per batch: the staged rows are deleted, claimed in import_rows, inserted into
-- customers with their card numbers, their consents recorded) and does no per-row work in the app.
-- A staged row is deleted in the same transaction as its claim, so what is left is exactly what is
-- still to import: a killed run resumes from it, a cancelled or finished import deletes the rest.
-- Logged (not UNLOGGED): a PostgreSQL crash must not lose the rows a validated import still needs.
CREATE TABLE "import_staged_customers" (
	"import_id" uuid NOT NULL REFERENCES "imports"("id") ON DELETE CASCADE,
	"row_number" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"birth_date" date,
	"city" text,
	"province" text,
	"referral_code" text NOT NULL,
	"referred_by" uuid,
	"service" boolean,
	"marketing" boolean,
	"profiling" boolean,
	"notice_version" text NOT NULL,
	CONSTRAINT "import_staged_customers_pkey" PRIMARY KEY ("import_id", "row_number")
);
--> statement-breakpoint
-- True once the dry run has staged the import's rows (an import checked before 0014 runs the old way).
ALTER TABLE "imports" ADD COLUMN "staged" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The card number of a sequence value, as @sf/contract's cardNumberFor makes it: prefix 279, the
-- sequence on 9 digits (more if it ever needs them), a Luhn check digit. A test compares the two.
CREATE FUNCTION "card_number_for"("sequence" bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
	body text := '279' || CASE WHEN length("sequence"::text) >= 9 THEN "sequence"::text ELSE lpad("sequence"::text, 9, '0') END;
	size integer := length(body);
	total integer := 0;
	digit integer;
BEGIN
	FOR position IN 0 .. size - 1 LOOP
		digit := ascii(substr(body, size - position, 1)) - 48;
		IF position % 2 = 0 THEN
			digit := digit * 2;
			IF digit > 9 THEN digit := digit - 9; END IF;
		END IF;
		total := total + digit;
	END LOOP;
	RETURN body || ((10 - total % 10) % 10)::text;
END;
$$;
