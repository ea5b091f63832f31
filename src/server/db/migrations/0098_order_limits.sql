-- The order limits (docs/ordering.md "Holds that cannot be abused"): how long an unpaid order
-- holds its stock, how much one account may hold, and how often it may order, set by an admin on
-- Manage All Orders (one row, id 1, written when an admin first saves; until then ORDER_HOLD_HOURS,
-- HOLD_*, ORDERS_PER_MINUTE and QUICK_ORDER_PER_MINUTE). Every process keeps them in memory:
-- a change tells each one (NOTIFY `order-limits`, in the writing transaction).
CREATE TABLE "order_limit_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"hold_hours" integer NOT NULL,
	"new_customer_hold_minutes" integer NOT NULL,
	"max_share_percent" integer NOT NULL,
	"free_units" integer NOT NULL,
	"new_customer_share_percent" integer NOT NULL,
	"max_held_cents" bigint NOT NULL,
	"orders_per_minute" integer NOT NULL,
	"quick_order_per_minute" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_limit_settings_one_row" CHECK ("order_limit_settings"."id" = 1),
	CONSTRAINT "order_limit_settings_valid" CHECK ("order_limit_settings"."hold_hours" > 0 and "order_limit_settings"."new_customer_hold_minutes" > 0 and "order_limit_settings"."max_share_percent" between 1 and 100 and "order_limit_settings"."free_units" >= 0 and "order_limit_settings"."new_customer_share_percent" between 1 and 100 and "order_limit_settings"."max_held_cents" > 0 and "order_limit_settings"."orders_per_minute" > 0 and "order_limit_settings"."quick_order_per_minute" > 0)
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_order_limits_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'order-limits');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_limit_settings_changed AFTER INSERT OR UPDATE OR DELETE ON "order_limit_settings"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_order_limits_changed();
