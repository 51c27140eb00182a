-- Privacy requests (GDPR), processing blocks (restriction / objection) and CSV imports (issue 10).
-- Hand-written. Decision record 021 explains erasure and the blocks; 022 the retention purge.
CREATE TABLE "privacy_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL CONSTRAINT "privacy_requests_kind_check" CHECK ("kind" IN ('access', 'portability', 'rectification', 'erasure', 'restriction', 'objection')),
	"customer_id" uuid NOT NULL REFERENCES "customers"("id"),
	"received_at" timestamp with time zone NOT NULL,
	-- One month after receipt; three when extended (art. 12(3) GDPR), with a reason.
	"due_at" timestamp with time zone NOT NULL,
	"extension_reason" text,
	"extended_at" timestamp with time zone,
	"status" text DEFAULT 'open' NOT NULL CONSTRAINT "privacy_requests_status_check" CHECK ("status" IN ('open', 'in_progress', 'done', 'rejected')),
	"notes" text,
	"handled_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"handled_at" timestamp with time zone,
	-- What was done: { action, at, ... } per action taken (export summary, erasure counts).
	"outcome" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_requests_extension_check" CHECK (("extended_at" IS NULL) = ("extension_reason" IS NULL))
);
--> statement-breakpoint
-- The queue: open requests by deadline (also the dashboard's "near their deadline").
CREATE INDEX "privacy_requests_status_due_idx" ON "privacy_requests" ("status", "due_at", "id");
--> statement-breakpoint
CREATE INDEX "privacy_requests_customer_idx" ON "privacy_requests" ("customer_id");
--> statement-breakpoint
CREATE INDEX "privacy_requests_received_idx" ON "privacy_requests" ("received_at", "id");
--> statement-breakpoint
-- A restriction or objection in force: marketing and profiling consents cannot be granted again
-- while a block has no lifted_at (customers.service checks it in the grant's transaction).
CREATE TABLE "customer_processing_blocks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL REFERENCES "customers"("id"),
	"kind" text NOT NULL CONSTRAINT "customer_processing_blocks_kind_check" CHECK ("kind" IN ('restriction', 'objection')),
	"request_id" uuid REFERENCES "privacy_requests"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"lift_reason" text
);
--> statement-breakpoint
CREATE INDEX "customer_processing_blocks_active_idx" ON "customer_processing_blocks" ("customer_id") WHERE "lifted_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL CONSTRAINT "imports_kind_check" CHECK ("kind" IN ('customers', 'balances')),
	"status" text DEFAULT 'validated' NOT NULL CONSTRAINT "imports_status_check" CHECK ("status" IN ('validated', 'queued', 'running', 'done', 'cancelled', 'failed')),
	"file_name" text NOT NULL,
	-- Relative to DATA_DIR/imports (the uploaded file, kept until the import ends).
	"stored_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	-- { delimiter, hasBom, decimal, dateFormat } as detected.
	"dialect" jsonb NOT NULL,
	-- target field → source column name.
	"mapping" jsonb NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"valid_rows" integer DEFAULT 0 NOT NULL,
	"error_rows" integer DEFAULT 0 NOT NULL,
	-- The last data row whose batch committed: a resumed job starts after it.
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"imported_rows" integer DEFAULT 0 NOT NULL,
	"skipped_rows" integer DEFAULT 0 NOT NULL,
	"report" jsonb,
	"created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "imports_created_idx" ON "imports" ("created_at", "id");
--> statement-breakpoint
-- Row-level problems found by the dry run (and by the import itself), translated when read.
CREATE TABLE "import_row_errors" (
	"import_id" uuid NOT NULL REFERENCES "imports"("id") ON DELETE CASCADE,
	"row_number" integer NOT NULL,
	"column_name" text NOT NULL,
	"code" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "import_row_errors_pkey" PRIMARY KEY ("import_id", "row_number", "column_name")
);
--> statement-breakpoint
-- One row of a file is imported once, ever: the batch inserts its (import, row) first and only the
-- rows that insert go on to create customers or ledger entries, in the same transaction.
CREATE TABLE "import_rows" (
	"import_id" uuid NOT NULL REFERENCES "imports"("id") ON DELETE CASCADE,
	"row_number" integer NOT NULL,
	"entity_id" text,
	CONSTRAINT "import_rows_pkey" PRIMARY KEY ("import_id", "row_number")
);
