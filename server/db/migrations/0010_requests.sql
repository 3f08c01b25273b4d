CREATE TABLE "live_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_id" integer NOT NULL,
	"ticket_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"request_id" integer,
	"text" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_request_chat_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_request_comment_media" (
	"comment_id" integer NOT NULL,
	"media_id" integer NOT NULL,
	CONSTRAINT "service_request_comment_media_comment_id_media_id_pk" PRIMARY KEY("comment_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "service_request_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"chat_type" text NOT NULL,
	"author_user_id" integer,
	"author_member_id" integer,
	"author_name" text NOT NULL,
	"via_link" boolean DEFAULT false NOT NULL,
	"message" text NOT NULL,
	"edited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_request_counters" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_request_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"actor_name" text NOT NULL,
	"from_stage" text,
	"to_stage" text,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_request_media" (
	"request_id" integer NOT NULL,
	"media_id" integer NOT NULL,
	CONSTRAINT "service_request_media_request_id_media_id_pk" PRIMARY KEY("request_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "service_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"number" integer NOT NULL,
	"type_id" integer,
	"house_id" integer NOT NULL,
	"realty_id" integer,
	"member_id" integer,
	"text" text NOT NULL,
	"stage" text DEFAULT 'new' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"deadline" timestamp with time zone,
	"responsible_id" integer,
	"performer_id" integer,
	"created_by" integer,
	"done_at" timestamp with time zone,
	"search" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service_request_types" ADD COLUMN "deadline_hours" integer;--> statement-breakpoint
ALTER TABLE "live_tickets" ADD CONSTRAINT "live_tickets_token_id_auth_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."auth_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_chat_links" ADD CONSTRAINT "service_request_chat_links_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_chat_links" ADD CONSTRAINT "service_request_chat_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_chat_links" ADD CONSTRAINT "service_request_chat_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_comment_media" ADD CONSTRAINT "service_request_comment_media_comment_id_service_request_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."service_request_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_comment_media" ADD CONSTRAINT "service_request_comment_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_comments" ADD CONSTRAINT "service_request_comments_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_comments" ADD CONSTRAINT "service_request_comments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_comments" ADD CONSTRAINT "service_request_comments_author_member_id_members_id_fk" FOREIGN KEY ("author_member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_counters" ADD CONSTRAINT "service_request_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_history" ADD CONSTRAINT "service_request_history_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_history" ADD CONSTRAINT "service_request_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_media" ADD CONSTRAINT "service_request_media_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_request_media" ADD CONSTRAINT "service_request_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_type_id_service_request_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."service_request_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_realty_id_realty_id_fk" FOREIGN KEY ("realty_id") REFERENCES "public"."realty"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_responsible_id_users_id_fk" FOREIGN KEY ("responsible_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_performer_id_users_id_fk" FOREIGN KEY ("performer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "live_tickets_hash_uq" ON "live_tickets" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "live_tickets_expires_idx" ON "live_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_request_idx" ON "notifications" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_request_chat_links_token_uq" ON "service_request_chat_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "service_request_chat_links_request_idx" ON "service_request_chat_links" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "service_request_comment_media_media_idx" ON "service_request_comment_media" USING btree ("media_id");--> statement-breakpoint
CREATE INDEX "service_request_comments_request_idx" ON "service_request_comments" USING btree ("request_id","chat_type","created_at","id");--> statement-breakpoint
CREATE INDEX "service_request_comments_author_idx" ON "service_request_comments" USING btree ("author_user_id");--> statement-breakpoint
CREATE INDEX "service_request_history_request_idx" ON "service_request_history" USING btree ("request_id","created_at","id");--> statement-breakpoint
CREATE INDEX "service_request_media_media_idx" ON "service_request_media" USING btree ("media_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_requests_org_number_uq" ON "service_requests" USING btree ("organization_id","number");--> statement-breakpoint
CREATE INDEX "service_requests_org_created_idx" ON "service_requests" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "service_requests_org_stage_created_idx" ON "service_requests" USING btree ("organization_id","stage","created_at","id");--> statement-breakpoint
CREATE INDEX "service_requests_org_deadline_idx" ON "service_requests" USING btree ("organization_id","deadline","id");--> statement-breakpoint
CREATE INDEX "service_requests_house_created_idx" ON "service_requests" USING btree ("house_id","created_at","id");--> statement-breakpoint
CREATE INDEX "service_requests_responsible_idx" ON "service_requests" USING btree ("responsible_id","created_at");--> statement-breakpoint
CREATE INDEX "service_requests_performer_idx" ON "service_requests" USING btree ("performer_id","created_at");--> statement-breakpoint
CREATE INDEX "service_requests_type_idx" ON "service_requests" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "service_requests_member_idx" ON "service_requests" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "service_requests_realty_idx" ON "service_requests" USING btree ("realty_id");--> statement-breakpoint
CREATE INDEX "service_requests_search_trgm_idx" ON "service_requests" USING gin ("search" gin_trgm_ops);