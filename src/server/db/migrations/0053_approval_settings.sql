-- The approval window and the owners' reminder, set by an admin on the Approvals page
-- (docs/approvals.md). One row (id 1), written when an admin first saves; until then the store
-- uses APPROVAL_WINDOW_BUSINESS_DAYS and APPROVAL_REMINDER_HOURS.
CREATE TABLE "approval_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"window_business_days" integer DEFAULT 3 NOT NULL,
	"reminder_hours" integer DEFAULT 24 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_settings_one_row" CHECK ("approval_settings"."id" = 1),
	CONSTRAINT "approval_settings_window_valid" CHECK ("approval_settings"."window_business_days" >= 1 and "approval_settings"."window_business_days" <= 30),
	CONSTRAINT "approval_settings_reminder_valid" CHECK ("approval_settings"."reminder_hours" > 0 and "approval_settings"."reminder_hours" < "approval_settings"."window_business_days" * 24)
);
