CREATE TABLE "member_units" (
	"resident_id" integer PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"complex_id" integer,
	"name_key" text NOT NULL,
	"status" text NOT NULL,
	"search" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_units" ADD CONSTRAINT "member_units_resident_id_residents_id_fk" FOREIGN KEY ("resident_id") REFERENCES "public"."residents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_units_complex_name_idx" ON "member_units" USING btree ("complex_id","name_key","member_id") INCLUDE ("house_id","status","organization_id","search");--> statement-breakpoint
CREATE INDEX "member_units_member_idx" ON "member_units" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "member_units_house_idx" ON "member_units" USING btree ("house_id");--> statement-breakpoint
-- The members list's complex index: kept by these triggers in the statement that changes its
-- sources (docs/benchmarks.md, "Members of a complex"). The sort key is the one of
-- server/lib/sortKey.ts (ukrainianSortKey), written out with its private-use letters as escapes.
CREATE FUNCTION member_units_add(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_units (resident_id, organization_id, member_id, house_id, complex_id, name_key, status, search)
  SELECT r.id, r.organization_id, r.member_id, u.house_id, h.complex_id, translate(lower(m.name), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', U&'\E000\E001\E002\E003\E004\E005\E006\E007\E008\E009\E00A\E00B\E00C\E00D\E00E\E00F\E010\E011\E012\E013\E014\E015\E016\E017\E018\E019\E01A\E01B\E01C\E01D\E01E\E01F\E020'), m.status, m.search
  FROM residents r
  JOIN realty u ON u.id = r.realty_id
  JOIN houses h ON h.id = u.house_id
  JOIN members m ON m.id = r.member_id
  WHERE r.id = ANY(ids)
  ON CONFLICT (resident_id) DO UPDATE SET
    organization_id = excluded.organization_id, member_id = excluded.member_id, house_id = excluded.house_id,
    complex_id = excluded.complex_id, name_key = excluded.name_key, status = excluded.status, search = excluded.search
$$;
--> statement-breakpoint
CREATE FUNCTION member_units_residents_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_units (resident_id, organization_id, member_id, house_id, complex_id, name_key, status, search)
  SELECT r.id, r.organization_id, r.member_id, u.house_id, h.complex_id, translate(lower(m.name), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', U&'\E000\E001\E002\E003\E004\E005\E006\E007\E008\E009\E00A\E00B\E00C\E00D\E00E\E00F\E010\E011\E012\E013\E014\E015\E016\E017\E018\E019\E01A\E01B\E01C\E01D\E01E\E01F\E020'), m.status, m.search
  FROM new_rows r
  JOIN realty u ON u.id = r.realty_id
  JOIN houses h ON h.id = u.house_id
  JOIN members m ON m.id = r.member_id
  ON CONFLICT (resident_id) DO UPDATE SET
    organization_id = excluded.organization_id, member_id = excluded.member_id, house_id = excluded.house_id,
    complex_id = excluded.complex_id, name_key = excluded.name_key, status = excluded.status, search = excluded.search;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_units_residents_insert AFTER INSERT ON residents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_units_residents_changed();
--> statement-breakpoint
CREATE TRIGGER member_units_residents_update AFTER UPDATE ON residents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_units_residents_changed();
--> statement-breakpoint
CREATE FUNCTION member_units_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_units mu SET name_key = translate(lower(n.name), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', U&'\E000\E001\E002\E003\E004\E005\E006\E007\E008\E009\E00A\E00B\E00C\E00D\E00E\E00F\E010\E011\E012\E013\E014\E015\E016\E017\E018\E019\E01A\E01B\E01C\E01D\E01E\E01F\E020'), status = n.status, search = n.search
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE mu.member_id = n.id AND (n.name <> o.name OR n.status <> o.status OR n.search <> o.search);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_units_members_update AFTER UPDATE ON members
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION member_units_members_changed();
--> statement-breakpoint
CREATE FUNCTION member_units_houses_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_units mu SET complex_id = n.complex_id
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE mu.house_id = n.id AND n.complex_id IS DISTINCT FROM o.complex_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_units_houses_update AFTER UPDATE ON houses
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION member_units_houses_changed();
--> statement-breakpoint
CREATE FUNCTION member_units_realty_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM member_units_add(ARRAY(
    SELECT r.id FROM residents r JOIN new_rows n ON n.id = r.realty_id JOIN old_rows o ON o.id = n.id
    WHERE n.house_id <> o.house_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_units_realty_update AFTER UPDATE ON realty
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION member_units_realty_changed();
--> statement-breakpoint
INSERT INTO member_units (resident_id, organization_id, member_id, house_id, complex_id, name_key, status, search)
SELECT r.id, r.organization_id, r.member_id, u.house_id, h.complex_id, translate(lower(m.name), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', U&'\E000\E001\E002\E003\E004\E005\E006\E007\E008\E009\E00A\E00B\E00C\E00D\E00E\E00F\E010\E011\E012\E013\E014\E015\E016\E017\E018\E019\E01A\E01B\E01C\E01D\E01E\E01F\E020'), m.status, m.search
FROM residents r
JOIN realty u ON u.id = r.realty_id
JOIN houses h ON h.id = u.house_id
JOIN members m ON m.id = r.member_id;
