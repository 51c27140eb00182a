-- Hand-written (issue 28): each customer's language, for what we write to them (service e-mails,
-- campaigns, the /u/<token> preferences page). Italian unless the customer said otherwise: existing
-- rows become 'it'. The import stages it with the rest of the checked row.
ALTER TABLE "customers" ADD COLUMN "language" text NOT NULL DEFAULT 'it'
	CONSTRAINT "customers_language_check" CHECK ("language" IN ('it', 'en'));
--> statement-breakpoint
ALTER TABLE "import_staged_customers" ADD COLUMN "language" text NOT NULL DEFAULT 'it';
