-- A complex's news in publish order from the link table's own index (docs/architecture.md, "Rows
-- of a complex in a link's order"): article_complexes carries its article's publish_at, kept by the
-- triggers below in the statement that writes either table. The index on complex_id alone is
-- replaced by the two that begin with it.
DROP INDEX "article_complexes_complex_idx";--> statement-breakpoint
ALTER TABLE "article_complexes" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
UPDATE "article_complexes" ac SET "publish_at" = a."publish_at" FROM "articles" a WHERE a."id" = ac."article_id" AND a."publish_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "article_complexes_complex_publish_asc_idx" ON "article_complexes" USING btree ("complex_id","publish_at","article_id");--> statement-breakpoint
CREATE INDEX "article_complexes_complex_publish_desc_idx" ON "article_complexes" USING btree ("complex_id","publish_at" DESC NULLS LAST,"article_id" DESC NULLS FIRST);--> statement-breakpoint
-- A link row takes its article's time when it is written.
CREATE FUNCTION article_complexes_take_publish_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.publish_at := (SELECT a.publish_at FROM articles a WHERE a.id = NEW.article_id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER article_complexes_take_publish_at BEFORE INSERT OR UPDATE OF article_id ON article_complexes
  FOR EACH ROW EXECUTE FUNCTION article_complexes_take_publish_at();--> statement-breakpoint
-- An article's new time goes to its links.
CREATE FUNCTION articles_publish_at_to_complexes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE article_complexes SET publish_at = NEW.publish_at WHERE article_id = NEW.id AND publish_at IS DISTINCT FROM NEW.publish_at;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER articles_publish_at_to_complexes AFTER UPDATE OF publish_at ON articles
  FOR EACH ROW WHEN (OLD.publish_at IS DISTINCT FROM NEW.publish_at) EXECUTE FUNCTION articles_publish_at_to_complexes();
