CREATE SEQUENCE "public"."return_rma_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 10001 CACHE 1;--> statement-breakpoint
CREATE TABLE "return_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"restocking_fee_percent" integer DEFAULT 0 NOT NULL,
	"fee_conditions" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_settings_one_row" CHECK ("return_settings"."id" = 1),
	CONSTRAINT "return_settings_percent_valid" CHECK ("return_settings"."restocking_fee_percent" >= 0 and "return_settings"."restocking_fee_percent" <= 100)
);
--> statement-breakpoint
ALTER TABLE "return_requests" DROP CONSTRAINT "return_requests_status_valid";--> statement-breakpoint
ALTER TABLE "return_lines" ADD COLUMN "received_qty" integer;--> statement-breakpoint
ALTER TABLE "return_lines" ADD COLUMN "condition" text;--> statement-breakpoint
ALTER TABLE "return_lines" ADD COLUMN "refund_net_cents" integer;--> statement-breakpoint
ALTER TABLE "return_lines" ADD COLUMN "refund_tax_cents" integer;--> statement-breakpoint
ALTER TABLE "return_lines" ADD COLUMN "fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "rma_number" integer DEFAULT nextval('return_rma_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "vehicle_base_vehicle_id" integer;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "vehicle_engine_id" integer;--> statement-breakpoint
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_vehicle_base_vehicle_id_base_vehicles_id_fk" FOREIGN KEY ("vehicle_base_vehicle_id") REFERENCES "public"."base_vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_vehicle_engine_id_vehicle_engines_id_fk" FOREIGN KEY ("vehicle_engine_id") REFERENCES "public"."vehicle_engines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "return_requests_vehicle_idx" ON "return_requests" USING btree ("vehicle_base_vehicle_id") WHERE "return_requests"."vehicle_base_vehicle_id" is not null;--> statement-breakpoint
CREATE INDEX "return_requests_vehicle_engine_idx" ON "return_requests" USING btree ("vehicle_engine_id") WHERE "return_requests"."vehicle_engine_id" is not null;--> statement-breakpoint
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_rma_number_unique" UNIQUE("rma_number");--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_received_valid" CHECK ("return_lines"."received_qty" is null or ("return_lines"."received_qty" >= 0 and "return_lines"."received_qty" <= "return_lines"."qty"));--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_condition_valid" CHECK ("return_lines"."condition" is null or "return_lines"."condition" in ('as_new', 'damaged', 'used', 'wrong_part'));--> statement-breakpoint
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_status_valid" CHECK ("return_requests"."status" in ('requested', 'approved', 'refused', 'received', 'refund_failed', 'refunded', 'closed'));