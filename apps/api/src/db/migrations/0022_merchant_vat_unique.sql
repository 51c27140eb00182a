-- Hand-written (issue 31). Two merchants with one Partita IVA were accepted, and every picker then
-- showed two identical names. A Partita IVA now belongs to one merchant that is not archived: an
-- archived one keeps its history (and its number) without blocking a new registration of the company.
--
-- Existing duplicates: the oldest merchant of each number keeps it; the later ones are archived (their
-- ledger history stays readable, as for any archived merchant), each with an audit row saying why, so
-- that staff can find them in Audit and merge or correct them. Reactivating one is refused (409
-- already_used on vatNumber) until its number is corrected.
WITH ranked AS (
  SELECT id, status, row_number() OVER (PARTITION BY vat_number ORDER BY created_at, id) AS rank
  FROM merchants WHERE status <> 'archived'
), archived AS (
  UPDATE merchants m SET status = 'archived', version = m.version + 1, updated_at = now()
  FROM ranked r WHERE r.id = m.id AND r.rank > 1
  RETURNING m.id, r.status AS before_status
)
INSERT INTO audit_log (actor_email, action, entity_type, entity_id, before, after)
SELECT 'system', 'archive', 'merchant', id::text, jsonb_build_object('status', before_status),
       jsonb_build_object('status', 'archived', 'reason', 'duplicate Partita IVA (migration 0022)')
FROM archived;
--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_vat_number_key" ON "merchants" ("vat_number") WHERE "status" <> 'archived';
