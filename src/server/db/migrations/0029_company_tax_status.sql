ALTER TABLE "companies" ADD COLUMN "tax_id_country" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_id_validated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_exemption_certificate" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_exemption_recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "tax_exemption_recorded_by" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_note" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_tax_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_tax_exemption_recorded_by_user_id_fk" FOREIGN KEY ("tax_exemption_recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;