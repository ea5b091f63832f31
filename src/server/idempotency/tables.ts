import { sql } from "../db/sql";
import { check, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestampNow, timestampTz } from "../db/columns";
import { ownerUserId } from "../users/tables";

/**
 * One `Idempotency-Key` a customer sent with a placing or paying request, and what it was
 * answered (docs/idempotency.md): `running` from the claim until the answer is stored, `done` with
 * the answer, `unknown` when the request failed after its work may have committed (it is never
 * run again with this key). Kept 24 hours (`expires_at`), then swept hourly.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: ownerUserId(),
    key: text("key").notNull(),
    /** The route the key was first used on: `POST /api/orders`. */
    route: text("route").notNull(),
    /** sha256 (hex) of the route, the path's parameters and the checked body, in canonical JSON. */
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["running", "done", "unknown"] }).notNull(),
    statusCode: integer("status_code"),
    /** The answer's body exactly as it was sent (JSON text). */
    response: text("response"),
    createdAt: timestampNow("created_at"),
    expiresAt: timestampTz("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    check("idempotency_keys_state_valid", sql`${t.state} in ('running', 'done', 'unknown')`),
    check("idempotency_keys_key_length", sql`char_length(${t.key}) between 1 and 255`),
    check(
      "idempotency_keys_done_has_answer",
      sql`(${t.state} = 'done') = (${t.statusCode} is not null and ${t.response} is not null)`,
    ),
    index("idempotency_keys_expires_at_idx").on(t.expiresAt),
  ],
);
