-- Issue 11: Firebase Authentication as the second identity provider (AUTH_PROVIDER=firebase).
-- The Firebase user an account is linked to; null for accounts the built-in provider alone knows.
-- Unique: one Firebase user is one of our accounts, never two (decision 015).
ALTER TABLE "users" ADD COLUMN "firebase_uid" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_firebase_uid_key" ON "users" USING btree ("firebase_uid");
