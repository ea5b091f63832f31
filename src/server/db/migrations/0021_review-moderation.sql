ALTER TABLE "reviews" ADD COLUMN "pending_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "verified_buyer" boolean DEFAULT false NOT NULL;