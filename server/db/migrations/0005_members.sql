CREATE TABLE "bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"realty_id" integer NOT NULL,
	"period" date NOT NULL,
	"service" text NOT NULL,
	"amount" integer NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bills_amount_nonnegative" CHECK ("bills"."amount" >= 0),
	CONSTRAINT "bills_paid_nonnegative" CHECK ("bills"."paid" >= 0)
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"email" text,
	"status" text DEFAULT 'active' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"search" text GENERATED ALWAYS AS (translate(lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(substr(phone, 2), '')), '''ʼ`‘', '’’’’')) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resident_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"holds_share" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "residents" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"realty_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"share_numerator" integer,
	"share_denominator" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"realty_id" integer,
	"plate" text NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_realty_id_realty_id_fk" FOREIGN KEY ("realty_id") REFERENCES "public"."realty"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resident_roles" ADD CONSTRAINT "resident_roles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_realty_id_realty_id_fk" FOREIGN KEY ("realty_id") REFERENCES "public"."realty"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_role_id_resident_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."resident_roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_realty_id_realty_id_fk" FOREIGN KEY ("realty_id") REFERENCES "public"."realty"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_realty_period_service_uq" ON "bills" USING btree ("realty_id","period","service");--> statement-breakpoint
CREATE UNIQUE INDEX "members_org_phone_uq" ON "members" USING btree ("organization_id","phone") WHERE "members"."phone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "members_org_email_uq" ON "members" USING btree ("organization_id","email") WHERE "members"."email" is not null;--> statement-breakpoint
CREATE INDEX "members_org_name_sort_idx" ON "members" USING btree ("organization_id",translate(lower("name"), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', ''),"id");--> statement-breakpoint
CREATE INDEX "members_org_status_name_idx" ON "members" USING btree ("organization_id","status",translate(lower("name"), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', ''),"id");--> statement-breakpoint
CREATE INDEX "members_org_created_idx" ON "members" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "members_search_trgm_idx" ON "members" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "resident_roles_org_code_uq" ON "resident_roles" USING btree ("organization_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "residents_member_realty_uq" ON "residents" USING btree ("member_id","realty_id");--> statement-breakpoint
CREATE INDEX "residents_realty_idx" ON "residents" USING btree ("realty_id","member_id");--> statement-breakpoint
CREATE INDEX "residents_role_idx" ON "residents" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_org_plate_uq" ON "vehicles" USING btree ("organization_id","plate");--> statement-breakpoint
CREATE INDEX "vehicles_member_idx" ON "vehicles" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "vehicles_realty_idx" ON "vehicles" USING btree ("realty_id");--> statement-breakpoint
CREATE INDEX "realty_org_number_idx" ON "realty" USING btree ("organization_id",lower("number"));