-- Catalog data files imported by admins (docs/imports.md): ACES fitment files, checked at upload
-- and imported by a job on the job queue, which moves the progress while it runs.
CREATE TABLE "catalog_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"brand" text NOT NULL,
	"file_name" text NOT NULL,
	"stored_file" text,
	"status" text NOT NULL,
	"applications" integer DEFAULT 0 NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	"vehicles" integer DEFAULT 0 NOT NULL,
	"rows_to_write" integer DEFAULT 0 NOT NULL,
	"rows_unchanged" integer DEFAULT 0 NOT NULL,
	"rows_to_remove" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"inserted" integer,
	"deleted" integer,
	"failure" text,
	"created_by_id" text NOT NULL,
	"created_by" text NOT NULL,
	"started_by_id" text,
	"started_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "catalog_imports_kind_valid" CHECK ("catalog_imports"."kind" in ('aces')),
	CONSTRAINT "catalog_imports_status_valid" CHECK ("catalog_imports"."status" in ('previewed', 'queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "catalog_imports_created_at_idx" ON "catalog_imports" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
