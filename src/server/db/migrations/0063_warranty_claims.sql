-- Warranty claims (docs/warranty.md): units of a shipped order line that failed in use, and
-- their history (messages of both sides, changes of status).
CREATE SEQUENCE "public"."warranty_claim_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 10001 CACHE 1;
--> statement-breakpoint
CREATE TABLE "warranty_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer DEFAULT nextval('warranty_claim_seq') NOT NULL,
	"order_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"qty" integer NOT NULL,
	"user_id" text,
	"company_id" uuid,
	"claimant_name" text NOT NULL,
	"claimant_email" text NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"vin" text NOT NULL,
	"mileage_at_install" integer NOT NULL,
	"mileage_at_failure" integer NOT NULL,
	"installed_on" date NOT NULL,
	"failed_on" date NOT NULL,
	"installed_by" text NOT NULL,
	"description" text NOT NULL,
	"customer_invoice_ref" text,
	"warranty_ends_on" date NOT NULL,
	"rejection_reason" text,
	"filed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warranty_claims_number_unique" UNIQUE("number"),
	CONSTRAINT "warranty_claims_qty_positive" CHECK ("warranty_claims"."qty" > 0),
	CONSTRAINT "warranty_claims_status_valid" CHECK ("warranty_claims"."status" in ('submitted', 'information_requested', 'rejected')),
	CONSTRAINT "warranty_claims_installer_valid" CHECK ("warranty_claims"."installed_by" in ('self', 'garage', 'other')),
	CONSTRAINT "warranty_claims_mileage_valid" CHECK ("warranty_claims"."mileage_at_install" >= 0 and "warranty_claims"."mileage_at_failure" >= "warranty_claims"."mileage_at_install"),
	CONSTRAINT "warranty_claims_dates_valid" CHECK ("warranty_claims"."failed_on" >= "warranty_claims"."installed_on")
);
--> statement-breakpoint
CREATE TABLE "warranty_claim_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"side" text NOT NULL,
	"author" text NOT NULL,
	"body" text,
	"status" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warranty_claim_events_side_valid" CHECK ("warranty_claim_events"."side" in ('customer', 'store')),
	CONSTRAINT "warranty_claim_events_something" CHECK ("warranty_claim_events"."body" is not null or "warranty_claim_events"."status" is not null)
);
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_order_id_line_order_items_order_id_line_fk" FOREIGN KEY ("order_id","line") REFERENCES "public"."order_items"("order_id","line") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "warranty_claim_events" ADD CONSTRAINT "warranty_claim_events_claim_id_warranty_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."warranty_claims"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "warranty_claims_order_idx" ON "warranty_claims" USING btree ("order_id","line");
--> statement-breakpoint
CREATE INDEX "warranty_claims_status_idx" ON "warranty_claims" USING btree ("status","filed_at");
--> statement-breakpoint
CREATE INDEX "warranty_claims_user_idx" ON "warranty_claims" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "warranty_claims_company_idx" ON "warranty_claims" USING btree ("company_id") WHERE "warranty_claims"."company_id" is not null;
--> statement-breakpoint
CREATE INDEX "warranty_claim_events_claim_idx" ON "warranty_claim_events" USING btree ("claim_id","at");
