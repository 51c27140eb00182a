-- Hand-written. Every write to a membership with tiers sums the points it earned in the tier window
-- (ledger.repository pointsEarnedSince), and every stamps purchase the stamps of the day
-- (stampsEarnedSince), under the membership's lock. On (membership_id, id) that read every entry of
-- the member from the table: a busy member with 10,500 entries took 6.5–10 ms a purchase, which caps
-- the writes to one hot member. On (membership_id, created_at) with the summed columns included, both
-- are index-only range scans of the window (3.0–4.5 ms for the same member once vacuumed, EXPLAIN
-- ANALYZE, load ~4; rows written since the last vacuum still cost a table read each). It stays linear in
-- the member's entries: a per-member, per-day sum would bound it. It replaces the old index, which no
-- query needs in id order.
CREATE INDEX "ledger_entries_membership_window_idx" ON "ledger_entries" ("membership_id", "created_at") INCLUDE ("kind", "source", "points", "stamps");
--> statement-breakpoint
DROP INDEX "ledger_entries_membership_idx";
