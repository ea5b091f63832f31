CREATE TABLE "totp_step_taken" (
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"step" bigint NOT NULL,
	CONSTRAINT "totp_step_taken_user_id_purpose_pk" PRIMARY KEY("user_id","purpose")
);
--> statement-breakpoint
ALTER TABLE "totp_step_taken" ADD CONSTRAINT "totp_step_taken_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;