CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"summary" text NOT NULL,
	CONSTRAINT "admin_audit_log_action_length" CHECK (char_length("admin_audit_log"."action") <= 64),
	CONSTRAINT "admin_audit_log_summary_length" CHECK (char_length("admin_audit_log"."summary") <= 1000)
);
--> statement-breakpoint
CREATE INDEX "admin_audit_log_at_idx" ON "admin_audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);