CREATE TABLE "cameras" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"name" text NOT NULL,
	"place" text DEFAULT '' NOT NULL,
	"stream_url" text,
	"snapshot_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"complex_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	"group_id" integer,
	"name" text NOT NULL,
	"phone" text,
	"email" text,
	"link" text,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discount_complexes" (
	"discount_id" integer NOT NULL,
	"complex_id" integer NOT NULL,
	CONSTRAINT "discount_complexes_discount_id_complex_id_pk" PRIMARY KEY("discount_id","complex_id")
);
--> statement-breakpoint
CREATE TABLE "discount_houses" (
	"discount_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	CONSTRAINT "discount_houses_discount_id_house_id_pk" PRIMARY KEY("discount_id","house_id")
);
--> statement-breakpoint
CREATE TABLE "discounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"partner" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"percent" integer,
	"promo_code" text,
	"address" text DEFAULT '' NOT NULL,
	"phone" text,
	"link" text,
	"valid_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_apartments" (
	"document_id" integer NOT NULL,
	"realty_id" integer NOT NULL,
	CONSTRAINT "document_apartments_document_id_realty_id_pk" PRIMARY KEY("document_id","realty_id")
);
--> statement-breakpoint
CREATE TABLE "document_complexes" (
	"document_id" integer NOT NULL,
	"complex_id" integer NOT NULL,
	CONSTRAINT "document_complexes_document_id_complex_id_pk" PRIMARY KEY("document_id","complex_id")
);
--> statement-breakpoint
CREATE TABLE "document_houses" (
	"document_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	CONSTRAINT "document_houses_document_id_house_id_pk" PRIMARY KEY("document_id","house_id")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"file_id" integer NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_groups" ADD CONSTRAINT "contact_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_sections" ADD CONSTRAINT "contact_sections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_sections" ADD CONSTRAINT "contact_sections_complex_id_complexes_id_fk" FOREIGN KEY ("complex_id") REFERENCES "public"."complexes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_section_id_contact_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."contact_sections"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_group_id_contact_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."contact_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_complexes" ADD CONSTRAINT "discount_complexes_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_complexes" ADD CONSTRAINT "discount_complexes_complex_id_complexes_id_fk" FOREIGN KEY ("complex_id") REFERENCES "public"."complexes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_houses" ADD CONSTRAINT "discount_houses_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_houses" ADD CONSTRAINT "discount_houses_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_apartments" ADD CONSTRAINT "document_apartments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_apartments" ADD CONSTRAINT "document_apartments_realty_id_realty_id_fk" FOREIGN KEY ("realty_id") REFERENCES "public"."realty"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_complexes" ADD CONSTRAINT "document_complexes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_complexes" ADD CONSTRAINT "document_complexes_complex_id_complexes_id_fk" FOREIGN KEY ("complex_id") REFERENCES "public"."complexes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_houses" ADD CONSTRAINT "document_houses_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_houses" ADD CONSTRAINT "document_houses_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_media_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cameras_house_idx" ON "cameras" USING btree ("house_id");--> statement-breakpoint
CREATE INDEX "cameras_org_idx" ON "cameras" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_groups_org_name_uq" ON "contact_groups" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "contact_sections_complex_idx" ON "contact_sections" USING btree ("complex_id");--> statement-breakpoint
CREATE INDEX "contacts_section_idx" ON "contacts" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "contacts_group_idx" ON "contacts" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "contacts_org_name_idx" ON "contacts" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "discount_complexes_complex_idx" ON "discount_complexes" USING btree ("complex_id");--> statement-breakpoint
CREATE INDEX "discount_houses_house_idx" ON "discount_houses" USING btree ("house_id");--> statement-breakpoint
CREATE INDEX "discounts_org_created_idx" ON "discounts" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "document_apartments_realty_idx" ON "document_apartments" USING btree ("realty_id");--> statement-breakpoint
CREATE INDEX "document_complexes_complex_idx" ON "document_complexes" USING btree ("complex_id");--> statement-breakpoint
CREATE INDEX "document_houses_house_idx" ON "document_houses" USING btree ("house_id");--> statement-breakpoint
CREATE INDEX "documents_org_created_idx" ON "documents" USING btree ("organization_id","created_at");