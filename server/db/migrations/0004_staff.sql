CREATE TABLE "service_request_type_roles" (
	"type_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "service_request_type_roles_type_id_role_id_pk" PRIMARY KEY("type_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "service_request_type_staff" (
	"type_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "service_request_type_staff_type_id_user_id_pk" PRIMARY KEY("type_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "service_request_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_departures" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_roles" ADD COLUMN "departure_id" integer;--> statement-breakpoint
ALTER TABLE "service_request_type_roles" ADD CONSTRAINT "service_request_type_roles_type_id_service_request_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."service_request_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_type_roles" ADD CONSTRAINT "service_request_type_roles_role_id_staff_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."staff_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_type_staff" ADD CONSTRAINT "service_request_type_staff_type_id_service_request_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."service_request_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_type_staff" ADD CONSTRAINT "service_request_type_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_types" ADD CONSTRAINT "service_request_types_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_departures" ADD CONSTRAINT "staff_departures_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_request_type_roles_role_idx" ON "service_request_type_roles" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "service_request_type_staff_user_idx" ON "service_request_type_staff" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_request_types_org_name_uq" ON "service_request_types" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "service_request_types_org_name_sort_idx" ON "service_request_types" USING btree ("organization_id",translate(lower("name"), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', ''));--> statement-breakpoint
CREATE UNIQUE INDEX "staff_departures_org_name_uq" ON "staff_departures" USING btree ("organization_id",lower("name"));--> statement-breakpoint
ALTER TABLE "staff_roles" ADD CONSTRAINT "staff_roles_departure_id_staff_departures_id_fk" FOREIGN KEY ("departure_id") REFERENCES "public"."staff_departures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_roles_departure_idx" ON "staff_roles" USING btree ("departure_id");--> statement-breakpoint
CREATE INDEX "users_org_name_sort_idx" ON "users" USING btree ("organization_id",translate(lower("name"), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', ''));--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role_id");