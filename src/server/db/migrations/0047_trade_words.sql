ALTER TABLE "order_approvals" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "account_invoice_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "account_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "account_settled_at" timestamp with time zone;--> statement-breakpoint
-- Orders placed on account before this migration: their invoice's number and due date, and
-- whether payments (and credit notes) have settled it, so they read "On account · invoice …".
UPDATE "orders" o SET "account_invoice_number" = i."number", "account_due_at" = i."due_at"
  FROM "invoices" i
 WHERE i."order_id" = o."id" AND i."kind" = 'invoice' AND i."terms" <> 'card';--> statement-breakpoint
UPDATE "orders" o SET "account_settled_at" = now()
  FROM "invoices" i
 WHERE i."order_id" = o."id" AND i."kind" = 'invoice' AND i."terms" <> 'card'
   AND coalesce((SELECT sum(p."amount_cents") FROM "invoice_payments" p
                  WHERE p."invoice_id" = i."id" AND p."reversed_at" IS NULL), 0)
     + coalesce((SELECT -sum(c."total_cents") FROM "invoices" c
                  WHERE c."kind" = 'credit_note' AND c."corrects_id" = i."id"), 0)
     >= i."total_cents";
