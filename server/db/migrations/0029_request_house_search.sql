-- A requests list's search word within named houses (docs/benchmarks.md, "A house's requests
-- searched on its index"): each house's branch walks this index newest first and tests each
-- request's search text, which the index now carries (with the organization), so the branch reads
-- the index alone and fetches no table row it does not answer. Drizzle's schema declares the index
-- without its INCLUDE columns, as for migration 0026.
CREATE INDEX "service_requests_house_created_cover_idx" ON "service_requests" USING btree ("house_id","created_at","id") INCLUDE ("organization_id","search");--> statement-breakpoint
DROP INDEX "service_requests_house_created_idx";--> statement-breakpoint
ALTER INDEX "service_requests_house_created_cover_idx" RENAME TO "service_requests_house_created_idx";
