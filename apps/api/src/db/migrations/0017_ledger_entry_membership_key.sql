-- Hand-written (decision record 011, "One key to the membership"). A ledger entry names its
-- membership, its customer and its program: three foreign keys, each checked by a query of its own.
-- Now one key, (membership_id, customer_id, program_id) → memberships, checks all three with one
-- query, and checks more than before: the entry's customer and program are its membership's. The
-- customer and the program still exist, because the membership's own keys say so.
--
-- Why: PostgreSQL checks a foreign key by locking the row it finds (FOR KEY SHARE), and a row lock is
-- written into the row. The membership is locked by the writing transaction already, so its check
-- writes nothing; the customer's check wrote a lock into the customer's row on every purchase, a
-- random page of a large table dirtied (after each checkpoint, a whole 8 KiB page in the WAL); the
-- program's check locked the ONE row every purchase of the program shares (concurrent lockers make
-- PostgreSQL build a new multixact each time).
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_id_customer_program_key" UNIQUE ("id", "customer_id", "program_id");
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_membership_key_fkey"
	FOREIGN KEY ("membership_id", "customer_id", "program_id") REFERENCES "memberships" ("id", "customer_id", "program_id") NOT VALID;
--> statement-breakpoint
ALTER TABLE "ledger_entries" VALIDATE CONSTRAINT "ledger_entries_membership_key_fkey";
--> statement-breakpoint
ALTER TABLE "ledger_entries"
	DROP CONSTRAINT "ledger_entries_membership_id_fkey",
	DROP CONSTRAINT "ledger_entries_customer_id_fkey",
	DROP CONSTRAINT "ledger_entries_program_id_fkey";
