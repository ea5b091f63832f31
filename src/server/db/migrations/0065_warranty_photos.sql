-- A warranty claimant's photos of the failed part (docs/warranty.md "Photos"): files in
-- DATA_DIR/warranty-photos, a row each here.
CREATE TABLE "warranty_claim_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warranty_claim_photos_file_name_unique" UNIQUE("file_name"),
	CONSTRAINT "warranty_claim_photos_size_positive" CHECK ("warranty_claim_photos"."size_bytes" > 0),
	CONSTRAINT "warranty_claim_photos_type_valid" CHECK ("warranty_claim_photos"."content_type" in ('image/jpeg', 'image/png', 'image/webp'))
);
--> statement-breakpoint
ALTER TABLE "warranty_claim_photos" ADD CONSTRAINT "warranty_claim_photos_claim_id_warranty_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."warranty_claims"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "warranty_claim_photos_claim_idx" ON "warranty_claim_photos" USING btree ("claim_id","created_at");
