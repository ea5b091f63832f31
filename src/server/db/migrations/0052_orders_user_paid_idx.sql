-- "Has this customer ever paid?" (checkout/read.ts trustedSql) in one probe, however many unpaid or
-- cancelled orders the customer has: each placement asks it, and a new customer's capped read asks
-- it for every unpaid order of the product.
CREATE INDEX "orders_user_paid_idx" ON "orders" USING btree ("user_id") WHERE "orders"."paid_at" is not null;
