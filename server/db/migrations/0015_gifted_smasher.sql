CREATE TABLE "sign_in_clients" (
	"user_id" integer NOT NULL,
	"client" text NOT NULL,
	"last_success_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_clients_user_id_client_pk" PRIMARY KEY("user_id","client")
);
--> statement-breakpoint
ALTER TABLE "sign_in_clients" ADD CONSTRAINT "sign_in_clients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_clients_client_idx" ON "sign_in_clients" USING btree ("client");