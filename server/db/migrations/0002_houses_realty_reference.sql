CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "house_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "houses" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"complex_id" integer,
	"settlement_id" integer NOT NULL,
	"street_id" integer NOT NULL,
	"number" text NOT NULL,
	"building" text DEFAULT '' NOT NULL,
	"house_type_id" integer,
	"floors" integer,
	"entrances" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realty" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"type" text NOT NULL,
	"number" text NOT NULL,
	"area" numeric(10, 2),
	"floor" integer,
	"entrance" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"region" text NOT NULL,
	"district" text,
	"community" text,
	"search_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "streets" (
	"id" serial PRIMARY KEY NOT NULL,
	"settlement_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"district" text,
	"search_name" text NOT NULL,
	"source" text DEFAULT 'reference' NOT NULL,
	"reference_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "house_types" ADD CONSTRAINT "house_types_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "houses" ADD CONSTRAINT "houses_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "houses" ADD CONSTRAINT "houses_complex_id_complexes_id_fk" FOREIGN KEY ("complex_id") REFERENCES "public"."complexes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "houses" ADD CONSTRAINT "houses_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "houses" ADD CONSTRAINT "houses_street_id_streets_id_fk" FOREIGN KEY ("street_id") REFERENCES "public"."streets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "houses" ADD CONSTRAINT "houses_house_type_id_house_types_id_fk" FOREIGN KEY ("house_type_id") REFERENCES "public"."house_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realty" ADD CONSTRAINT "realty_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realty" ADD CONSTRAINT "realty_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "streets" ADD CONSTRAINT "streets_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "house_types_org_name_uq" ON "house_types" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "houses_org_address_uq" ON "houses" USING btree ("organization_id","street_id",lower("number"),lower("building"));--> statement-breakpoint
CREATE INDEX "houses_complex_idx" ON "houses" USING btree ("complex_id");--> statement-breakpoint
CREATE INDEX "houses_org_settlement_idx" ON "houses" USING btree ("organization_id","settlement_id");--> statement-breakpoint
CREATE INDEX "houses_street_idx" ON "houses" USING btree ("street_id");--> statement-breakpoint
CREATE INDEX "houses_type_idx" ON "houses" USING btree ("house_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "realty_house_type_number_uq" ON "realty" USING btree ("house_id","type",lower("number"));--> statement-breakpoint
CREATE INDEX "realty_org_type_idx" ON "realty" USING btree ("organization_id","type","id");--> statement-breakpoint
CREATE INDEX "realty_house_type_idx" ON "realty" USING btree ("house_id","type","id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_code_uq" ON "settlements" USING btree ("code");--> statement-breakpoint
CREATE INDEX "settlements_search_prefix_idx" ON "settlements" USING btree ("search_name" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "settlements_search_trgm_idx" ON "settlements" USING gin ("search_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "streets_settlement_search_idx" ON "streets" USING btree ("settlement_id","search_name" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "streets_search_trgm_idx" ON "streets" USING gin ("search_name" gin_trgm_ops);