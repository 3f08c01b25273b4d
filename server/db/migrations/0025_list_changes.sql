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
-- A link table without its own organization: the organization of the first parent row found,
-- each named by a (table, column) pair of the arguments (the row on the other side of the link
-- stays when one side is deleted with its links); none found logs the change for everyone.
CREATE FUNCTION list_changes_via_parent() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  transition text;
  joins text := '';
  orgs text[] := '{}';
  i int := 0;
BEGIN
  WHILE i < TG_NARGS LOOP
    joins := joins || format(' LEFT JOIN %I p%s ON p%s.id = r.%I', TG_ARGV[i], i, i, TG_ARGV[i + 1]);
    orgs := orgs || format('p%s.organization_id', i);
    i := i + 2;
  END LOOP;
  FOREACH transition IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY['new_rows'] WHEN 'DELETE' THEN ARRAY['old_rows'] ELSE ARRAY['new_rows', 'old_rows'] END LOOP
    EXECUTE format('INSERT INTO list_changes (table_name, organization_id) SELECT DISTINCT %L::text, coalesce(%s) FROM %I r%s',
      TG_TABLE_NAME, array_to_string(orgs, ', '), transition, joins);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Reference data shared by every organization (settlements).
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
    'service_request_types', 'service_requests', 'staff_departures', 'staff_roles', 'streets', 'users', 'vehicles', 'votings'] LOOP
    EXECUTE format('CREATE TRIGGER list_changes_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_by_org()', t);
    EXECUTE format('CREATE TRIGGER list_changes_update AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_by_org()', t);
    EXECUTE format('CREATE TRIGGER list_changes_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_by_org()', t);
  END LOOP;
  FOREACH link SLICE 1 IN ARRAY ARRAY[
    ['announcement_complexes', 'announcements', 'announcement_id', 'complexes', 'complex_id'],
    ['announcement_houses', 'announcements', 'announcement_id', 'houses', 'house_id'],
    ['article_complexes', 'articles', 'article_id', 'complexes', 'complex_id'], ['article_houses', 'articles', 'article_id', 'houses', 'house_id'],
    ['discount_complexes', 'discounts', 'discount_id', 'complexes', 'complex_id'], ['discount_houses', 'discounts', 'discount_id', 'houses', 'house_id'],
    ['document_apartments', 'documents', 'document_id', 'realty', 'realty_id'], ['document_complexes', 'documents', 'document_id', 'complexes', 'complex_id'],
    ['document_houses', 'documents', 'document_id', 'houses', 'house_id'],
    ['event_complexes', 'events', 'event_id', 'complexes', 'complex_id'], ['event_houses', 'events', 'event_id', 'houses', 'house_id'],
    ['interview_complexes', 'interviews', 'interview_id', 'complexes', 'complex_id'], ['interview_houses', 'interviews', 'interview_id', 'houses', 'house_id'],
    ['service_request_type_roles', 'service_request_types', 'type_id', 'staff_roles', 'role_id'],
    ['service_request_type_staff', 'service_request_types', 'type_id', 'users', 'user_id'],
    ['user_complexes', 'users', 'user_id', 'complexes', 'complex_id']] LOOP
    EXECUTE format('CREATE TRIGGER list_changes_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_via_parent(%L, %L, %L, %L)',
      link[1], link[2], link[3], link[4], link[5]);
    EXECUTE format('CREATE TRIGGER list_changes_update AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_via_parent(%L, %L, %L, %L)',
      link[1], link[2], link[3], link[4], link[5]);
    EXECUTE format('CREATE TRIGGER list_changes_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_changes_via_parent(%L, %L, %L, %L)',
      link[1], link[2], link[3], link[4], link[5]);
  END LOOP;
  CREATE TRIGGER list_changes_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settlements FOR EACH STATEMENT EXECUTE FUNCTION list_changes_for_all();
END $$;
