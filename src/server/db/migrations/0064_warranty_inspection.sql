-- Warranty claims inspected (docs/warranty.md): the manufacturer's failure codes, editable by
-- admins and seeded with a first list, and each claim's inspection (code, findings, when).
CREATE TABLE "warranty_failure_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "warranty_failure_codes" ("code", "label") VALUES
	('WEAR', 'Premature wear'),
	('LEAK', 'Leak'),
	('ELEC', 'Electrical failure'),
	('NOISE', 'Noise or vibration'),
	('CRACK', 'Broken or cracked'),
	('INSTALL', 'Installation error'),
	('MISUSE', 'Misuse or contamination'),
	('NFF', 'No fault found');
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "failure_code" text;
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "findings" text;
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD COLUMN "inspected_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_failure_code_warranty_failure_codes_code_fk" FOREIGN KEY ("failure_code") REFERENCES "public"."warranty_failure_codes"("code") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "warranty_claims" DROP CONSTRAINT "warranty_claims_status_valid";
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_status_valid" CHECK ("warranty_claims"."status" in ('submitted', 'information_requested', 'inspected', 'rejected'));
--> statement-breakpoint
ALTER TABLE "warranty_claims" ADD CONSTRAINT "warranty_claims_inspection_whole" CHECK (("warranty_claims"."failure_code" is null) = ("warranty_claims"."inspected_at" is null) and ("warranty_claims"."findings" is null) = ("warranty_claims"."inspected_at" is null));
