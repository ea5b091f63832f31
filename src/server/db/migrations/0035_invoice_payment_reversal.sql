DROP INDEX "invoice_payments_reference_unique";--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "reversed_reason" text;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "reversed_by_email" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_reference_unique" ON "invoice_payments" USING btree ("invoice_id",lower("reference")) WHERE "invoice_payments"."reversed_at" is null;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_reversal_complete" CHECK (("invoice_payments"."reversed_at" is null) = ("invoice_payments"."reversed_reason" is null));