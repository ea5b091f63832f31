ALTER TABLE "orders" ADD COLUMN "paid_with" text;--> statement-breakpoint
-- Orders paid before this migration: the gateway of the payment that paid them.
UPDATE "orders" o SET "paid_with" = p."gateway" FROM "payments" p WHERE p."gateway_intent_id" = o."transaction_id";
