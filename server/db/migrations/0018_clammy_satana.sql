ALTER TABLE "password_resets" ADD COLUMN "account_stamp" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_set_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
CREATE INDEX "auth_attempts_at_idx" ON "auth_attempts" USING btree ("at");--> statement-breakpoint
CREATE INDEX "auth_tokens_expires_idx" ON "auth_tokens" USING btree ("expires_at");--> statement-breakpoint
-- hand-written: links issued before this migration are bound to the account as it is now
-- (the same stamp as accountStamp() in server/lib/sessions.ts), and accounts that were invited
-- but never chose a password (no session ever, no used link) are marked as such.
UPDATE "password_resets" r SET "account_stamp" = encode(sha256(convert_to(u."password_hash" || E'\n' || u."email", 'UTF8')), 'hex') FROM "users" u WHERE u."id" = r."user_id";--> statement-breakpoint
UPDATE "users" u SET "password_set_at" = NULL WHERE NOT EXISTS (SELECT 1 FROM "auth_tokens" t WHERE t."user_id" = u."id") AND EXISTS (SELECT 1 FROM "password_resets" r WHERE r."user_id" = u."id") AND NOT EXISTS (SELECT 1 FROM "password_resets" r WHERE r."user_id" = u."id" AND r."used_at" IS NOT NULL);
