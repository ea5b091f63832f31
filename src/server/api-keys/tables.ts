import { sql } from "../db/sql";
import { check, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import { apiScopes, DEFAULT_API_KEY_RATE, type ApiScope } from "../../contract/api-keys";
import { user } from "../users/tables";

/**
 * An API key another system calls the store with (docs/api-keys.md). The key itself is never
 * kept: only its visible prefix and the SHA-256 of the whole key (it holds 256 random bits, so
 * a fast hash is enough). A revoked key keeps its row, for the audit log.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuidPrimaryKey(),
    name: text("name").notNull(),
    /** `pw_` and 8 letters and digits: the start of the key, shown in the list, looked up by. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, in hex. */
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes").array().$type<ApiScope[]>().notNull(),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(DEFAULT_API_KEY_RATE),
    /** The admin the key acts as; null once their account is removed (the key is then refused). */
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    /** Their email, copied: the row outlives the account, as the audit log's do. */
    createdByEmail: text("created_by_email").notNull(),
    createdAt: timestampNow("created_at"),
    expiresAt: timestampTz("expires_at"),
    /** Moved on at most once a minute per key. */
    lastUsedAt: timestampTz("last_used_at"),
    revokedAt: timestampTz("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_prefix_unique").on(t.prefix),
    // Names are unique among keys not revoked, in any case.
    uniqueIndex("api_keys_live_name_unique")
      .on(sql`lower(${t.name})`)
      .where(sql`${t.revokedAt} is null`),
    check("api_keys_name_length", sql`char_length(${t.name}) between 1 and 60`),
    check("api_keys_prefix_valid", sql`${t.prefix} ~ '^pw_[0-9A-Za-z]{8}$'`),
    check("api_keys_secret_hash_valid", sql`${t.secretHash} ~ '^[0-9a-f]{64}$'`),
    check(
      "api_keys_scopes_valid",
      sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ ${sql.raw(
        `array[${apiScopes.map((s) => `'${s}'`).join(", ")}]::text[]`,
      )}`,
    ),
    check("api_keys_rate_limit_range", sql`${t.rateLimitPerMinute} between 1 and 100000`),
  ],
);
