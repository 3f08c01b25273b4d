CREATE TABLE "list_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"table_name" text NOT NULL,
	"organization_id" integer,
	"n" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "list_changes_table_org_idx" ON "list_changes" USING btree ("table_name","organization_id");--> statement-breakpoint
-- A list keeps a total it counted together with the sum of `n` over the change rows of the tables
-- its count reads, and counts again only when that sum has grown (server/lib/keptTotals.ts,
-- docs/architecture.md "Kept totals"). Each statement that writes a logged table adds one row per
-- organization it touched, in its own transaction: the sum a statement reads always matches the
-- rows it counts. Statement triggers, so an import of 50,000 rows adds one row, not 50,000.
CREATE FUNCTION list_changes_by_org() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_changes (table_name, organization_id) SELECT DISTINCT TG_TABLE_NAME, organization_id FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_changes (table_name, organization_id) SELECT DISTINCT TG_TABLE_NAME, organization_id FROM old_rows;
  ELSE
    INSERT INTO list_changes (table_name, organization_id)
      SELECT TG_TABLE_NAME, organization_id FROM new_rows UNION SELECT TG_TABLE_NAME, organization_id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A link table without its own organization: the organization of the parent row named by the
-- column TG_ARGV[1] in table TG_ARGV[0]; a parent already gone logs the change for everyone.
CREATE FUNCTION list_changes_via_parent() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  transition text;
BEGIN
  FOREACH transition IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY['new_rows'] WHEN 'DELETE' THEN ARRAY['old_rows'] ELSE ARRAY['new_rows', 'old_rows'] END LOOP
    EXECUTE format('INSERT INTO list_changes (table_name, organization_id) SELECT DISTINCT %L::text, p.organization_id FROM %I r LEFT JOIN %I p ON p.id = r.%I',
      TG_TABLE_NAME, transition, TG_ARGV[0], TG_ARGV[1]);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Reference data shared by every organization (settlements, streets).
CREATE FUNCTION list_changes_for_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_changes (table_name, organization_id) VALUES (TG_TABLE_NAME, NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  link text[];
BEGIN
  FOREACH t IN ARRAY ARRAY['advertisements', 'announcements', 'articles', 'bills', 'cameras', 'complexes', 'contact_groups', 'contact_sections', 'contacts',
    'discounts', 'documents', 'events', 'house_types', 'houses', 'interviews', 'media', 'member_units', 'members', 'realty', 'resident_roles', 'residents',
    'service_request_types', 'service_requests', 'staff_departures', 'staff_roles', 'users', 'vehicles', 'votings'] LOOP
    EXECUTE format('CREATE TRIGGER list_changes_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_by_org()', t);
    EXECUTE format('CREATE TRIGGER list_changes_update AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_by_org()', t);
    EXECUTE format('CREATE TRIGGER list_changes_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_by_org()', t);
  END LOOP;
  FOREACH link SLICE 1 IN ARRAY ARRAY[
    ['announcement_complexes', 'announcements', 'announcement_id'], ['announcement_houses', 'announcements', 'announcement_id'],
    ['article_complexes', 'articles', 'article_id'], ['article_houses', 'articles', 'article_id'],
    ['discount_complexes', 'discounts', 'discount_id'], ['discount_houses', 'discounts', 'discount_id'],
    ['document_apartments', 'documents', 'document_id'], ['document_complexes', 'documents', 'document_id'], ['document_houses', 'documents', 'document_id'],
    ['event_complexes', 'events', 'event_id'], ['event_houses', 'events', 'event_id'],
    ['interview_complexes', 'interviews', 'interview_id'], ['interview_houses', 'interviews', 'interview_id'],
    ['service_request_type_roles', 'service_request_types', 'type_id'], ['service_request_type_staff', 'service_request_types', 'type_id'],
    ['user_complexes', 'users', 'user_id']] LOOP
    EXECUTE format('CREATE TRIGGER list_changes_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_via_parent(%L, %L)', link[1], link[2], link[3]);
    EXECUTE format('CREATE TRIGGER list_changes_update AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_via_parent(%L, %L)', link[1], link[2], link[3]);
    EXECUTE format('CREATE TRIGGER list_changes_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_via_parent(%L, %L)', link[1], link[2], link[3]);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['settlements', 'streets'] LOOP
    EXECUTE format('CREATE TRIGGER list_changes_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_changes_for_all()', t);
  END LOOP;
END $$;
