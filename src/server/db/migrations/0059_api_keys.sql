-- API keys (issue 51, docs/api-keys.md): keys other systems call the store with, as
-- `Authorization: Bearer <key>`. Only the visible prefix and the SHA-256 of the whole key are
-- kept. The key acts as the admin who made it; when that account is removed the key stays, for
-- the audit trail, with no creator (and is refused).
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 600 NOT NULL,
	"created_by" text,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_name_length" CHECK (char_length("api_keys"."name") between 1 and 60),
	CONSTRAINT "api_keys_prefix_valid" CHECK ("api_keys"."prefix" ~ '^pw_[0-9A-Za-z]{8}$'),
	CONSTRAINT "api_keys_secret_hash_valid" CHECK ("api_keys"."secret_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "api_keys_scopes_valid" CHECK (cardinality("api_keys"."scopes") > 0 and "api_keys"."scopes" <@ array['catalog:read', 'catalog:write', 'inventory:write', 'prices:write', 'orders:read', 'orders:write', 'customers:read', 'webhooks:manage']::text[]),
	CONSTRAINT "api_keys_rate_limit_range" CHECK ("api_keys"."rate_limit_per_minute" between 1 and 100000)
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_unique" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_live_name_unique" ON "api_keys" USING btree (lower("name")) WHERE "api_keys"."revoked_at" is null;
