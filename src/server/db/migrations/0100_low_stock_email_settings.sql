-- The daily low-stock email (docs/admin-home.md): whether every admin gets it and from which hour
-- of the day (UTC), set by an admin on Today (one row, id 1, written when an admin first saves;
-- until then LOW_STOCK_EMAIL and LOW_STOCK_EMAIL_HOUR). The job reads it at each run.
CREATE TABLE "low_stock_email_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean NOT NULL,
	"hour_utc" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "low_stock_email_settings_one_row" CHECK ("low_stock_email_settings"."id" = 1),
	CONSTRAINT "low_stock_email_settings_hour_valid" CHECK ("low_stock_email_settings"."hour_utc" between 0 and 23)
);
