-- The requests of a complex or of some houses by type, and the overdue ones (docs/benchmarks.md,
-- "Searches that keep their plan"): each house's newest of a type from one index, and the open
-- requests' deadlines per house, counted on the index alone (organization_id included; drizzle's
-- schema declares the index without it).
CREATE INDEX "service_requests_house_type_created_idx" ON "service_requests" USING btree ("house_id","type_id","created_at","id");--> statement-breakpoint
CREATE INDEX "service_requests_house_open_deadline_idx" ON "service_requests" USING btree ("house_id","deadline") INCLUDE ("organization_id") WHERE "service_requests"."stage" <> 'done';
