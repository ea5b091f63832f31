-- The return windows (docs/returns.md "The return windows"): the days after a line ships that its
-- customer may ask to return it and send back its core, set by an admin on Dashboard → Returns
-- (one row, id 1, written when an admin first saves; until then RETURN_WINDOW_DAYS and
-- CORE_RETURN_WINDOW_DAYS).
CREATE TABLE "return_window_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"days" integer NOT NULL,
	"core_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_window_settings_one_row" CHECK ("return_window_settings"."id" = 1),
	CONSTRAINT "return_window_settings_days_valid" CHECK ("return_window_settings"."days" between 0 and 3650 and "return_window_settings"."core_days" between 0 and 3650)
);
