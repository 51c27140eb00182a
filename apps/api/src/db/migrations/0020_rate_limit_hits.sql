-- Hand-written (issue 29). The rate limits' counters (apps/api/src/lib/rate-limit-store.ts), shared by
-- every API process: one row per limited key (a route's client address, an integration key), counting
-- the hits of its current window. UNLOGGED: a counter is worth no WAL, nor a copy on the replica; a
-- crash of the server empties the table, which only starts every window afresh. The rows are rewritten
-- at every hit, never their key: half of each page is left free so that the new version stays on the
-- row's page (a HOT update) and the primary key's index is not touched.
CREATE UNLOGGED TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
) WITH (fillfactor = 50);
