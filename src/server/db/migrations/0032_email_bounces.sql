CREATE TABLE "email_bounces" (
	"address" text PRIMARY KEY NOT NULL,
	"bounced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"smtp_code" integer,
	"smtp_answer" text NOT NULL,
	CONSTRAINT "email_bounces_address_lower" CHECK ("email_bounces"."address" = lower("email_bounces"."address")),
	CONSTRAINT "email_bounces_answer_length" CHECK (char_length("email_bounces"."smtp_answer") <= 300)
);
