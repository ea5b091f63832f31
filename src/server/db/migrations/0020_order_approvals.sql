CREATE TABLE "order_approvals" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"limit_cents" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_by" text,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"note" text,
	CONSTRAINT "order_approvals_reason_valid" CHECK ("order_approvals"."reason" in ('order_limit', 'monthly_limit')),
	CONSTRAINT "order_approvals_decision_valid" CHECK ("order_approvals"."decision" is null or "order_approvals"."decision" in ('approved', 'declined')),
	CONSTRAINT "order_approvals_note_length" CHECK (char_length("order_approvals"."note") <= 500)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_valid";--> statement-breakpoint
DROP INDEX "orders_hold_idx";--> statement-breakpoint
ALTER TABLE "order_approvals" ADD CONSTRAINT "order_approvals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_approvals" ADD CONSTRAINT "order_approvals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_approvals" ADD CONSTRAINT "order_approvals_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_approvals_waiting_idx" ON "order_approvals" USING btree ("company_id","requested_at") WHERE "order_approvals"."decision" is null;--> statement-breakpoint
CREATE INDEX "orders_hold_idx" ON "orders" USING btree ("hold_expires_at") WHERE "orders"."status" in ('unpaid', 'awaiting_approval');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_valid" CHECK ("orders"."status" in ('unpaid', 'awaiting_approval', 'paid', 'shipped', 'cancelled'));