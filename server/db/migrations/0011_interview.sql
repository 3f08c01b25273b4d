CREATE TABLE "interview_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"interview_id" integer NOT NULL,
	"response_id" integer,
	"question_id" integer NOT NULL,
	"option_id" integer,
	"value" integer,
	"text" text,
	"answer_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interview_complexes" (
	"interview_id" integer NOT NULL,
	"complex_id" integer NOT NULL,
	CONSTRAINT "interview_complexes_interview_id_complex_id_pk" PRIMARY KEY("interview_id","complex_id")
);
--> statement-breakpoint
CREATE TABLE "interview_houses" (
	"interview_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	CONSTRAINT "interview_houses_interview_id_house_id_pk" PRIMARY KEY("interview_id","house_id")
);
--> statement-breakpoint
CREATE TABLE "interview_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interview_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"interview_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"scale_max" integer
);
--> statement-breakpoint
CREATE TABLE "interview_responses" (
	"id" serial PRIMARY KEY NOT NULL,
	"interview_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"channel" text NOT NULL,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"anonymous" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "interview_answers" ADD CONSTRAINT "interview_answers_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_answers" ADD CONSTRAINT "interview_answers_response_id_interview_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."interview_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_answers" ADD CONSTRAINT "interview_answers_question_id_interview_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."interview_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_answers" ADD CONSTRAINT "interview_answers_option_id_interview_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."interview_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_complexes" ADD CONSTRAINT "interview_complexes_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_complexes" ADD CONSTRAINT "interview_complexes_complex_id_complexes_id_fk" FOREIGN KEY ("complex_id") REFERENCES "public"."complexes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_houses" ADD CONSTRAINT "interview_houses_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_houses" ADD CONSTRAINT "interview_houses_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_options" ADD CONSTRAINT "interview_options_question_id_interview_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."interview_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_responses" ADD CONSTRAINT "interview_responses_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_responses" ADD CONSTRAINT "interview_responses_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_responses" ADD CONSTRAINT "interview_responses_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interview_answers_interview_idx" ON "interview_answers" USING btree ("interview_id","question_id");--> statement-breakpoint
CREATE INDEX "interview_answers_response_idx" ON "interview_answers" USING btree ("response_id");--> statement-breakpoint
CREATE INDEX "interview_complexes_complex_idx" ON "interview_complexes" USING btree ("complex_id");--> statement-breakpoint
CREATE INDEX "interview_houses_house_idx" ON "interview_houses" USING btree ("house_id");--> statement-breakpoint
CREATE INDEX "interview_options_question_idx" ON "interview_options" USING btree ("question_id","position");--> statement-breakpoint
CREATE INDEX "interview_questions_interview_idx" ON "interview_questions" USING btree ("interview_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "interview_responses_member_uq" ON "interview_responses" USING btree ("interview_id","member_id");--> statement-breakpoint
CREATE INDEX "interviews_org_start_idx" ON "interviews" USING btree ("organization_id","start_at");