-- Hand-written. An erased customer (privacy erasure empties the names) sorted first in the customers
-- list by name: its keys were ''. The keys are now NULL for an empty name, and the list orders them
-- NULLS LAST in both directions (customers.repository customerList): "Cliente cancellato" after
-- everyone, A→Z and Z→A. An index answers each direction in order, so that a page's ids still come
-- from an index alone (migration 0010): ascending NULLS LAST is the default order of the first index,
-- descending NULLS LAST needs its own (a backward scan of the first gives NULLS FIRST).
DROP INDEX "customers_name_key_idx";
--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "last_name_key";
--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "first_name_key";
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "last_name_key" text GENERATED ALWAYS AS (nullif(lower("last_name"), '')) STORED;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "first_name_key" text GENERATED ALWAYS AS (nullif(lower("first_name"), '')) STORED;
--> statement-breakpoint
CREATE INDEX "customers_name_key_idx" ON "customers" ("last_name_key", "first_name_key", "id");
--> statement-breakpoint
CREATE INDEX "customers_name_key_desc_idx" ON "customers" ("last_name_key" DESC NULLS LAST, "first_name_key" DESC NULLS LAST, "id" DESC);
