-- Warranty claims' deadlines and reminders (docs/warranty.md "Deadlines and reminders"): the
-- days each side has, set by an admin on Dashboard → Warranty claims (one row, id 1, written when
-- an admin first saves; until then the store's defaults), and each claim's last reminder, so a
-- claim is reminded once per change of status.
CREATE TABLE "warranty_deadline_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"claimant_days" integer NOT NULL,
	"store_days" integer NOT NULL,
	"reminder_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warranty_deadline_settings_one_row" CHECK ("warranty_deadline_settings"."id" = 1),
	CONSTRAINT "warranty_deadline_settings_days_valid" CHECK ("warranty_deadline_settings"."claimant_days" between 1 and 90 and "warranty_deadline_settings"."store_days" between 1 and 90),
	CONSTRAINT "warranty_deadline_settings_reminder_valid" CHECK ("warranty_deadline_settings"."reminder_days" >= 0 and "warranty_deadline_settings"."reminder_days" < least("warranty_deadline_settings"."claimant_days", "warranty_deadline_settings"."store_days"))
);
--> statement-breakpoint
CREATE TABLE "warranty_deadline_reminders" (
	"claim_id" uuid PRIMARY KEY NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"side" text NOT NULL,
	"due_on" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warranty_deadline_reminders_side_valid" CHECK ("warranty_deadline_reminders"."side" in ('claimant', 'store'))
);
--> statement-breakpoint
ALTER TABLE "warranty_deadline_reminders" ADD CONSTRAINT "warranty_deadline_reminders_claim_id_warranty_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."warranty_claims"("id") ON DELETE cascade ON UPDATE no action;
