-- Hand-written, data only (decision record 021, amended): an erasure now closes what was still open
-- on the person — pending social-action proofs (rejected, never paid), their other open privacy
-- requests (done, superseded by the erasure) and their issued, unused vouchers (void, the unit back in
-- stock). Customers erased before that kept them open, and the API now refuses every action on an
-- erased customer's proof or request (409 customer_erased): this closes them once, as the erasure
-- would have. The reason text is the erasure's Italian one (contract social-proofs erasureClosedReason).
UPDATE "social_proofs" p
SET "status" = 'rejected',
	"reason" = 'Chiusa dalla cancellazione dei dati del cliente: nessun punto assegnato',
	"decided_at" = now(),
	"decided_by" = NULL,
	"decided_by_label" = 'privacy-erasure'
FROM "customers" c
WHERE c."id" = p."customer_id" AND c."status" = 'erased' AND p."status" = 'pending';
--> statement-breakpoint
UPDATE "privacy_requests" r
SET "status" = 'done',
	"handled_at" = now(),
	"outcome" = r."outcome" || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
		'action', 'superseded',
		'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		'erasureRequestId', (SELECT e."id" FROM "privacy_requests" e
			WHERE e."customer_id" = r."customer_id" AND e."kind" = 'erasure' AND e."status" = 'done'
			ORDER BY e."handled_at" DESC NULLS LAST LIMIT 1)))),
	"version" = r."version" + 1,
	"updated_at" = now()
FROM "customers" c
WHERE c."id" = r."customer_id" AND c."status" = 'erased' AND r."status" IN ('open', 'in_progress');
--> statement-breakpoint
WITH voided AS (
	UPDATE "vouchers" v SET "status" = 'void', "voided_at" = now()
	FROM "customers" c
	WHERE c."id" = v."customer_id" AND c."status" = 'erased' AND v."status" = 'issued'
	RETURNING v."reward_id", v."entry_id"
)
UPDATE "rewards" w SET "stock" = w."stock" + freed.n
FROM (SELECT "reward_id", count(*)::int AS n FROM voided WHERE "entry_id" IS NOT NULL GROUP BY "reward_id") freed
WHERE w."id" = freed."reward_id" AND w."stock" IS NOT NULL;
