ALTER TABLE "streets" ADD COLUMN "organization_id" integer;--> statement-breakpoint
ALTER TABLE "streets" ADD COLUMN "replaces_street_id" integer;--> statement-breakpoint
ALTER TABLE "streets" ADD CONSTRAINT "streets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "streets" ADD CONSTRAINT "streets_replaces_street_id_streets_id_fk" FOREIGN KEY ("replaces_street_id") REFERENCES "public"."streets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "streets_org_settlement_idx" ON "streets" USING btree ("organization_id","settlement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "streets_org_replaces_uq" ON "streets" USING btree ("organization_id","replaces_street_id") WHERE "streets"."replaces_street_id" is not null;--> statement-breakpoint
-- hand-written:
-- Streets added or renamed before streets had owners: each becomes the street of the one
-- organization whose houses use it (or of the only organization, when no house does); a street
-- whose houses belong to several organizations stays shared, and is now read-only to all.
UPDATE "streets" s SET "organization_id" = o."owner"
FROM (
  SELECT st."id",
    CASE
      WHEN count(DISTINCT h."organization_id") = 1 THEN min(h."organization_id")
      WHEN count(h."id") = 0 AND (SELECT count(*) FROM "organizations") = 1 THEN (SELECT min("id") FROM "organizations")
    END AS "owner"
  FROM "streets" st LEFT JOIN "houses" h ON h."street_id" = st."id"
  WHERE st."source" = 'admin'
  GROUP BY st."id"
) o
WHERE o."id" = s."id" AND o."owner" IS NOT NULL;--> statement-breakpoint
-- A renamed reference street that became one organization's: the reference row comes back under
-- its old name for every other organization, and the organization's street stands in for it.
DO $$
DECLARE
  r record;
  restored integer;
BEGIN
  FOR r IN SELECT "id", "settlement_id", "reference_name", "type", "district" FROM "streets"
    WHERE "organization_id" IS NOT NULL AND "reference_name" IS NOT NULL AND "replaces_street_id" IS NULL ORDER BY "id"
  LOOP
    INSERT INTO "streets" ("settlement_id", "name", "type", "district", "search_name", "source")
    VALUES (r."settlement_id", r."reference_name", r."type", r."district",
      lower(regexp_replace(btrim(translate(r."reference_name", '''ʼ`‘', '’’’’')), '\s+', ' ', 'g')), 'reference')
    RETURNING "id" INTO restored;
    UPDATE "streets" SET "replaces_street_id" = restored WHERE "id" = r."id";
  END LOOP;
END $$;
