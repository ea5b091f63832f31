-- The order limits (migration 0098) gain the reminder before a hold ends (docs/ordering.md "The
-- order limits"): how many hours before an unpaid order's hold ends its buyer is emailed, and
-- Today lists it (HOLD_WARNING_HOURS until an admin saves). Limits saved before this migration
-- take the shipped default, 12 hours.
ALTER TABLE "order_limit_settings" ADD COLUMN "hold_warning_hours" integer DEFAULT 12 NOT NULL;
--> statement-breakpoint
ALTER TABLE "order_limit_settings" ALTER COLUMN "hold_warning_hours" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "order_limit_settings" ADD CONSTRAINT "order_limit_settings_warning_valid" CHECK ("order_limit_settings"."hold_warning_hours" > 0);
