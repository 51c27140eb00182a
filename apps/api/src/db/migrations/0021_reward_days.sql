-- Hand-written (issue 31). A reward's validity is a range of business days in BUSINESS_TIME_ZONE, its
-- last day included, not a pair of instants: the form used to send the browser's midnight and
-- 23:59:59, so a window typed as 01/11–30/06 read 01/07 in another zone and expired at 23:59:59 of the
-- browser, not at the end of the business day. The columns become dates.
--
-- Existing rows: valid_from was the start of the intended day and valid_until its end, each in the
-- browser's time zone. Shifting by twelve hours toward the middle of that day and taking the UTC date
-- gives the intended day for any browser within twelve hours of UTC, whatever the business zone.
ALTER TABLE "rewards" DROP CONSTRAINT "rewards_window";
--> statement-breakpoint
ALTER TABLE "rewards"
  ALTER COLUMN "valid_from" TYPE date USING (("valid_from" + interval '12 hours') AT TIME ZONE 'UTC')::date,
  ALTER COLUMN "valid_until" TYPE date USING (("valid_until" - interval '12 hours') AT TIME ZONE 'UTC')::date;
--> statement-breakpoint
-- A one-day window (from = until) is a window.
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_window" CHECK ("valid_from" IS NULL OR "valid_until" IS NULL OR "valid_from" <= "valid_until");
