-- Warranty claims decided (docs/warranty.md "Its life"): the part asked back through a return
-- (an RMA of the returns flow, received and kept with the claim), and the approval's remedy (a
-- $0 replacement order, or the returned part's refund).
ALTER TABLE "warranty_claims" DROP CONSTRAINT "warranty_claims_status_valid";--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_status_valid" CHECK ("warranty_claims"."status" in ('submitted', 'information_requested', 'part_requested', 'part_received', 'inspected', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "return_id" uuid;--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "remedy" text;--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "replacement_order_id" uuid;--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_return_id_return_requests_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."return_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_replacement_order_id_orders_id_fk" FOREIGN KEY ("replacement_order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_return_id_unique" UNIQUE("return_id");--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_replacement_order_id_unique" UNIQUE("replacement_order_id");--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_remedy_valid" CHECK ("warranty_claims"."remedy" is null or "warranty_claims"."remedy" in ('replacement', 'refund'));--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_approved_whole" CHECK (("warranty_claims"."status" = 'approved') = ("warranty_claims"."remedy" is not null) and coalesce("warranty_claims"."remedy" = 'replacement', false) = ("warranty_claims"."replacement_order_id" is not null));--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "warranty_claim" integer;--> statement-breakpoint
ALTER TABLE "return_requests" DROP CONSTRAINT "return_requests_status_valid";--> statement-breakpoint
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_status_valid" CHECK ("return_requests"."status" in ('requested', 'approved', 'refused', 'received', 'inspecting', 'refund_failed', 'refunded', 'closed'));
