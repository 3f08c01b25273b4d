-- A phone's digits searched (docs/architecture.md, "Phone numbers searched"): every run of seven
-- digits in a member's search text (name, e-mail, the phone's digits), each as an integer. A
-- search of seven or more digits asks for its runs of seven: the GIN index below names the members
-- whose text has them all, and only those are tested for the whole digits. The trigram index could
-- only intersect lists of digit trigrams found in most phones, which grow with the organization.
-- Only ASCII digits make a window ([0-9], not \d), so that every window is a valid integer.
CREATE FUNCTION digit_windows(t text) RETURNS integer[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(run[1], i, 7)::integer), '{}')
  FROM regexp_matches(t, '[0-9]{7,}', 'g') AS run, generate_series(1, length(run[1]) - 6) AS i
$$;--> statement-breakpoint
CREATE INDEX "members_digit_windows_idx" ON "members" USING gin (digit_windows("search"));--> statement-breakpoint
-- The index's statistics (how common each run is), without which the planner cannot tell a
-- common run («3809500») from a rare one until the table's next automatic analyze.
ANALYZE "members";
