-- A meeting's voting link is no longer kept in clear (docs/security.md, "Voting links are kept
-- hashed and sealed"): the public page finds the meeting by the token's SHA-256 (hex, as
-- server/lib/secrets.ts hashes every other token), and staff are shown the link again from its
-- copy sealed under the link key, which the database does not hold. The sealing needs that key,
-- so it is done at the next start (sealClearLinkTokens, server/modules/voting/linkTokens.ts),
-- which then empties link_token. sha256(bytea) is built into PostgreSQL 11+ and PGlite.
ALTER TABLE "votings" ADD COLUMN "link_token_hash" text;--> statement-breakpoint
ALTER TABLE "votings" ADD COLUMN "link_token_sealed" text;--> statement-breakpoint
UPDATE "votings" SET "link_token_hash" = encode(sha256(convert_to("link_token", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "votings" ALTER COLUMN "link_token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "votings" ALTER COLUMN "link_token" DROP NOT NULL;--> statement-breakpoint
DROP INDEX "votings_link_token_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "votings_link_token_hash_uq" ON "votings" USING btree ("link_token_hash");--> statement-breakpoint
-- A row that arrives with a clear token (restored from a backup made before this migration, whose
-- rows have no hash) gets its hash here; the next start seals it as above.
CREATE FUNCTION votings_link_token_hash() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.link_token IS NOT NULL THEN
    NEW.link_token_hash := encode(sha256(convert_to(NEW.link_token, 'UTF8')), 'hex');
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER votings_link_token_hash BEFORE INSERT OR UPDATE OF link_token ON "votings" FOR EACH ROW EXECUTE FUNCTION votings_link_token_hash();
