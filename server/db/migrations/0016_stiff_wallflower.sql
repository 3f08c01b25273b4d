ALTER TABLE "media" ADD COLUMN "key" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
CREATE INDEX "advertisements_image_idx" ON "advertisements" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "articles_image_idx" ON "articles" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "documents_file_idx" ON "documents" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "events_image_idx" ON "events" USING btree ("image_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_key_uq" ON "media" USING btree ("key");--> statement-breakpoint
CREATE INDEX "voting_ballots_sheet_media_idx" ON "voting_ballots" USING btree ("sheet_media_id");--> statement-breakpoint
CREATE INDEX "votings_protocol_media_idx" ON "votings" USING btree ("protocol_media_id");