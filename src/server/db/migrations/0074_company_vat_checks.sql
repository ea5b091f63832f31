-- EU VAT numbers checked against VIES, the Commission's register (docs/tax.md "VIES"). One row per
-- company with an EU VAT number while VIES checks are on: the number checked (`vat_id`, as
-- companies.tax_id holds it), VIES's last answer (`answer`: valid or invalid; null until it
-- answers) with its date, consultation number and the trader's name and address it gave, and the
-- last attempt (`last_failure` says why VIES did not answer it; null when it did). Written by the
-- companies module only; a new number replaces the row in the transaction that records it.
CREATE TABLE "company_vat_checks" (
	"company_id" uuid PRIMARY KEY NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"vat_id" text NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"consultation_number" text,
	"vies_name" text,
	"vies_address" text,
	"last_attempt_at" timestamp with time zone,
	"last_failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_vat_checks_answer_valid" CHECK ("answer" IS NULL OR "answer" IN ('valid', 'invalid')),
	CONSTRAINT "company_vat_checks_answered" CHECK (("answer" IS NULL) = ("answered_at" IS NULL))
);
--> statement-breakpoint
-- The recurring re-check's question: numbers never answered, or answered longest ago.
CREATE INDEX "company_vat_checks_due_idx" ON "company_vat_checks" ("answered_at" NULLS FIRST);
