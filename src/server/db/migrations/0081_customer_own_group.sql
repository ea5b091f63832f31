-- A customer's own customer group (docs/pricing.md "A customer's own group"): an admin sets it on
-- Manage users; it counts while the customer belongs to no company (a member's group is their
-- company's). Retail by default, as every customer without a company was.
ALTER TABLE "user" ADD COLUMN "customer_group_id" uuid DEFAULT '00000000-0000-4000-8000-000000000001' NOT NULL
  CONSTRAINT "user_customer_group_id_fkey" REFERENCES "customer_groups"("id") ON DELETE RESTRICT;
--> statement-breakpoint
CREATE INDEX "user_customer_group_idx" ON "user" USING btree ("customer_group_id");
--> statement-breakpoint
-- What the customer pays changes: the placement's facts move on (migration 0042).
CREATE TRIGGER user_group_placement_facts AFTER UPDATE OF customer_group_id ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
