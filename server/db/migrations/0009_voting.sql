CREATE TABLE "voting_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"ballot_id" integer NOT NULL,
	"voting_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"answer" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voting_ballots" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"channel" text NOT NULL,
	"ballot_date" date NOT NULL,
	"identification" text,
	"identified_target" text,
	"signature_provider" text,
	"signature_signer" text,
	"signed_at" timestamp with time zone,
	"document_hash" text,
	"sheet_media_id" integer,
	"representative" text DEFAULT '' NOT NULL,
	"representative_document" text DEFAULT '' NOT NULL,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voting_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"salt" text NOT NULL,
	"code_hash" text NOT NULL,
	"challenge_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"voided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "voting_ownerships" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"share_numerator" integer,
	"share_denominator" integer
);
--> statement-breakpoint
CREATE TABLE "voting_participants" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"name" text NOT NULL,
	"ownership_document" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voting_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"threshold" text NOT NULL,
	"threshold_percent" numeric(5, 2),
	"capped" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voting_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"identification" text NOT NULL,
	"identified_target" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voting_units" (
	"id" serial PRIMARY KEY NOT NULL,
	"voting_id" integer NOT NULL,
	"realty_id" integer,
	"type" text NOT NULL,
	"number" text NOT NULL,
	"area_centi" integer
);
--> statement-breakpoint
CREATE TABLE "votings" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"title" text NOT NULL,
	"regime" text NOT NULL,
	"initiator" text NOT NULL,
	"meeting_date" date NOT NULL,
	"meeting_time" text NOT NULL,
	"place" text DEFAULT '' NOT NULL,
	"video_tools" text DEFAULT '' NOT NULL,
	"chair" text DEFAULT '' NOT NULL,
	"statute_text" text DEFAULT '' NOT NULL,
	"signed_only" boolean DEFAULT false NOT NULL,
	"notice_date" date,
	"results_notice_date" date,
	"link_token" text NOT NULL,
	"protocol_media_id" integer,
	"last_notified_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "voting_answers" ADD CONSTRAINT "voting_answers_ballot_id_voting_ballots_id_fk" FOREIGN KEY ("ballot_id") REFERENCES "public"."voting_ballots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_answers" ADD CONSTRAINT "voting_answers_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_answers" ADD CONSTRAINT "voting_answers_participant_id_voting_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."voting_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_answers" ADD CONSTRAINT "voting_answers_question_id_voting_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."voting_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ballots" ADD CONSTRAINT "voting_ballots_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ballots" ADD CONSTRAINT "voting_ballots_participant_id_voting_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."voting_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ballots" ADD CONSTRAINT "voting_ballots_sheet_media_id_media_id_fk" FOREIGN KEY ("sheet_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ballots" ADD CONSTRAINT "voting_ballots_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_codes" ADD CONSTRAINT "voting_codes_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_codes" ADD CONSTRAINT "voting_codes_participant_id_voting_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."voting_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ownerships" ADD CONSTRAINT "voting_ownerships_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ownerships" ADD CONSTRAINT "voting_ownerships_participant_id_voting_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."voting_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_ownerships" ADD CONSTRAINT "voting_ownerships_unit_id_voting_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."voting_units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_participants" ADD CONSTRAINT "voting_participants_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_participants" ADD CONSTRAINT "voting_participants_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_questions" ADD CONSTRAINT "voting_questions_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_sessions" ADD CONSTRAINT "voting_sessions_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_sessions" ADD CONSTRAINT "voting_sessions_participant_id_voting_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."voting_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_units" ADD CONSTRAINT "voting_units_voting_id_votings_id_fk" FOREIGN KEY ("voting_id") REFERENCES "public"."votings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voting_units" ADD CONSTRAINT "voting_units_realty_id_realty_id_fk" FOREIGN KEY ("realty_id") REFERENCES "public"."realty"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votings" ADD CONSTRAINT "votings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votings" ADD CONSTRAINT "votings_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votings" ADD CONSTRAINT "votings_protocol_media_id_media_id_fk" FOREIGN KEY ("protocol_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votings" ADD CONSTRAINT "votings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "voting_answers_participant_question_uq" ON "voting_answers" USING btree ("participant_id","question_id");--> statement-breakpoint
CREATE INDEX "voting_answers_voting_idx" ON "voting_answers" USING btree ("voting_id");--> statement-breakpoint
CREATE INDEX "voting_ballots_voting_idx" ON "voting_ballots" USING btree ("voting_id","participant_id");--> statement-breakpoint
CREATE INDEX "voting_codes_participant_idx" ON "voting_codes" USING btree ("participant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "voting_codes_challenge_uq" ON "voting_codes" USING btree ("challenge_hash");--> statement-breakpoint
CREATE INDEX "voting_ownerships_voting_idx" ON "voting_ownerships" USING btree ("voting_id");--> statement-breakpoint
CREATE INDEX "voting_ownerships_participant_idx" ON "voting_ownerships" USING btree ("participant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "voting_participants_voting_member_uq" ON "voting_participants" USING btree ("voting_id","member_id");--> statement-breakpoint
CREATE INDEX "voting_questions_voting_idx" ON "voting_questions" USING btree ("voting_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "voting_sessions_token_uq" ON "voting_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "voting_units_voting_idx" ON "voting_units" USING btree ("voting_id");--> statement-breakpoint
CREATE INDEX "votings_org_date_idx" ON "votings" USING btree ("organization_id","meeting_date");--> statement-breakpoint
CREATE INDEX "votings_house_idx" ON "votings" USING btree ("house_id");--> statement-breakpoint
CREATE UNIQUE INDEX "votings_link_token_uq" ON "votings" USING btree ("link_token");