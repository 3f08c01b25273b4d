DROP INDEX "members_org_name_sort_idx";--> statement-breakpoint
DROP INDEX "members_org_name_desc_idx";--> statement-breakpoint
DROP INDEX "members_org_status_name_idx";--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "name_key" text GENERATED ALWAYS AS (translate(lower(name), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', U&'\E000\E001\E002\E003\E004\E005\E006\E007\E008\E009\E00A\E00B\E00C\E00D\E00E\E00F\E010\E011\E012\E013\E014\E015\E016\E017\E018\E019\E01A\E01B\E01C\E01D\E01E\E01F\E020')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "members_org_name_key_idx" ON "members" USING btree ("organization_id","name_key","id");--> statement-breakpoint
CREATE INDEX "members_org_status_name_key_idx" ON "members" USING btree ("organization_id","status","name_key","id");--> statement-breakpoint
-- member_units takes the member's stored key (the same value as migration 0021 computed).
CREATE OR REPLACE FUNCTION member_units_add(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_units (resident_id, organization_id, member_id, house_id, complex_id, name_key, status, search)
  SELECT r.id, r.organization_id, r.member_id, u.house_id, h.complex_id, m.name_key, m.status, m.search
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
CREATE OR REPLACE FUNCTION member_units_residents_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_units (resident_id, organization_id, member_id, house_id, complex_id, name_key, status, search)
  SELECT r.id, r.organization_id, r.member_id, u.house_id, h.complex_id, m.name_key, m.status, m.search
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
CREATE OR REPLACE FUNCTION member_units_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_units mu SET name_key = n.name_key, status = n.status, search = n.search
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE mu.member_id = n.id AND (n.name_key <> o.name_key OR n.status <> o.status OR n.search <> o.search);
  RETURN NULL;
END $$;
