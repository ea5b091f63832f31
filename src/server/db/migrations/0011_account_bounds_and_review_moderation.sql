ALTER TABLE "reviews" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reviews_user_created_idx" ON "reviews" USING btree ("user_id","created_at");--> statement-breakpoint
-- Accounts made before the limits: cut an over-long name, drop an over-long image address.
UPDATE "user" SET "name" = left("name", 80) WHERE char_length("name") > 80;--> statement-breakpoint
UPDATE "user" SET "image" = NULL WHERE char_length("image") > 2048;--> statement-breakpoint
UPDATE "reviews" SET "author_name" = left("author_name", 80) WHERE char_length("author_name") > 80;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_name_length" CHECK (char_length("user"."name") <= 80);--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_image_length" CHECK (char_length("user"."image") <= 2048);