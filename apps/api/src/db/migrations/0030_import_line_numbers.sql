-- Hand-written. An import reports a row by the line the file shows it on (blank lines and cells over
-- several lines counted), while the rows keep being known by their position among the data rows for
-- claims, staging and progress (what a resumed run relies on). The line is kept where a later step
-- reports a row without reading the file again:
-- * a staged row's line, for the e-mail found taken when the job inserts it (null: staged before this
--   migration, reported by its position as before);
-- * the line of the last committed row beside its byte (processed_bytes), so that a run resumed in the
--   middle of the file numbers the rows after it as the dry run did (0: not known, counted from the file).
ALTER TABLE "import_staged_customers" ADD COLUMN "line_number" integer;
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "processed_lines" integer DEFAULT 0 NOT NULL;
