CREATE TABLE "invoice_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"paid_on" date NOT NULL,
	"reference" text NOT NULL,
	"recorded_by_id" text,
	"recorded_by_email" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_payments_amount_positive" CHECK ("invoice_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_reminders" (
	"invoice_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_reminders_invoice_id_kind_pk" PRIMARY KEY("invoice_id","kind"),
	CONSTRAINT "invoice_reminders_kind_valid" CHECK ("invoice_reminders"."kind" in ('before_due', 'overdue'))
);
--> statement-breakpoint
-- Hand-added: the free-text terms before this ("Net 30") were informational only; every company
-- starts on card so that no checkout changes until an admin chooses net terms (docs/net-terms.md).
UPDATE "companies" SET "payment_terms" = 'card';--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "payment_terms" SET DEFAULT 'card';--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "payment_terms" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "terms" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "company_id" uuid;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reminders" ADD CONSTRAINT "invoice_reminders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_reference_unique" ON "invoice_payments" USING btree ("invoice_id",lower("reference"));--> statement-breakpoint
CREATE INDEX "invoices_on_account_idx" ON "invoices" USING btree ("company_id","due_at") WHERE "invoices"."terms" <> 'card';--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_payment_terms_valid" CHECK ("companies"."payment_terms" in ('card', 'net15', 'net30', 'net60'));