import { and, desc, eq, isNull } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  apiKeyMessages as say,
  type ApiKey,
  type ApiKeyChange,
  type ApiKeyCreate,
  type ApiKeyIssued,
  type ApiKeyStatus,
  type ApiScope,
  apiScopes,
} from "../../contract/api-keys";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { rateHitCtes, rateHitResult, type RateLimitResult } from "../auth/rate-limit";
import { systemClock, type Clock } from "../clock";
import type { Db, DbOrTx } from "../db/database";
import { isUniqueViolation, transactionAnswering } from "../db/postgres-errors";
import { conflict, fieldError, notFound, unauthorized } from "../errors";
import type { ApiKeyActor, SessionUser } from "../http/request-context";
import { user } from "../users/tables";
import { keyMatches, newApiKey, prefixOf } from "./secret";
import { apiKeys } from "./tables";

/*
 * API keys (docs/api-keys.md): the admin's list and changes, each in one transaction with its
 * audit row, and the check of a key on every request that carries one: one indexed read by its
 * prefix, the hash compared in constant time, no cache (a revoked key is refused at once on
 * every process), then one statement that counts the request against the key's rate limit and
 * moves its last use on (at most once a minute).
 */

/** A key the hook accepted: the admin it acts as, and what it may do. */
export interface AcceptedKey {
  caller: SessionUser & { apiKey: ApiKeyActor };
  scopes: readonly ApiScope[];
  rateLimitPerMinute: number;
}

const statusSql = sql<ApiKeyStatus>`case
  when ${apiKeys.revokedAt} is not null then 'revoked'
  when ${apiKeys.expiresAt} <= now() then 'expired'
  else 'active' end`;

const listColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  scopes: apiKeys.scopes,
  rateLimitPerMinute: apiKeys.rateLimitPerMinute,
  createdBy: apiKeys.createdBy,
  createdByEmail: apiKeys.createdByEmail,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  status: statusSql,
};
/** The keys' rows as the list shows them (`where` and the rest chained on). */
const selectKeys = (tx: DbOrTx) => tx.select(listColumns).from(apiKeys);
type Row = Awaited<ReturnType<typeof selectKeys>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApiKey(r: Row): ApiKey {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    rateLimitPerMinute: r.rateLimitPerMinute,
    // The creator's account is gone: the key stays in the list, for the audit trail.
    createdByEmail: r.createdBy === null ? null : r.createdByEmail,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    expiresAt: iso(r.expiresAt),
    revokedAt: iso(r.revokedAt),
    status: r.status,
  };
}

/** Each scope once, in the contract's order (as the schema leaves them). */
const inOrder = (scopes: readonly ApiScope[]) => apiScopes.filter((s) => scopes.includes(s));

/** "catalog:read, orders:read; 600 requests a minute; expires 2027-01-31T23:59:59.000Z". */
const settingsInWords = (k: {
  scopes: readonly string[];
  rateLimitPerMinute: number;
  expiresAt: Date | null;
}) =>
  `${k.scopes.join(", ")}; ${k.rateLimitPerMinute} requests a minute; expires ${
    k.expiresAt ? k.expiresAt.toISOString() : "never"
  }`;

const audit = (tx: DbOrTx, actor: AuditActor, verb: string, id: string, summary: string) =>
  recordAdminAction(tx, {
    actor,
    action: `api-key.${verb}`,
    target: { type: "api-key", id },
    summary,
  });

/** A name another live key has (the partial unique index), as 409 rather than 500. */
const nameTaken = (name: string) => (err: unknown) =>
  isUniqueViolation(err, "api_keys_live_name_unique") ? conflict(say.taken(name)) : undefined;

/**
 * A fresh key for `write`, drawn again should its prefix be taken already (one chance in 10^14
 * per key that exists; a few tries are plenty).
 */
async function withNewKey<T>(
  write: (made: ReturnType<typeof newApiKey>) => Promise<T>,
): Promise<{ key: string; result: T }> {
  for (let attempt = 1; ; attempt++) {
    const made = newApiKey();
    try {
      return { key: made.key, result: await write(made) };
    } catch (err) {
      if (!isUniqueViolation(err, "api_keys_prefix_unique") || attempt >= 5) throw err;
    }
  }
}

export function createApiKeyService(db: Db, opts: { now?: Clock } = {}) {
  const now = opts.now ?? systemClock;

  /** An expiry the admin gave: in the future, or 400 beside the field. */
  const expiryOf = (given: string | null | undefined): Date | null => {
    if (given == null) return null;
    const at = new Date(given);
    if (at.getTime() <= now().getTime()) throw fieldError("expiresAt", say.expiryPast);
    return at;
  };

  /** The key, locked for the change; 404 when there is none, 409 once it is revoked. */
  async function lockedLive(tx: DbOrTx, id: string): Promise<Row> {
    const [row] = await selectKeys(tx).where(eq(apiKeys.id, id)).for("update");
    if (!row) throw notFound(say.notFound);
    if (row.revokedAt) throw conflict(say.revokedNoChange);
    return row;
  }

  const read = async (tx: DbOrTx, id: string): Promise<ApiKey> => {
    const [row] = await selectKeys(tx).where(eq(apiKeys.id, id));
    if (!row) throw notFound(say.notFound);
    return toApiKey(row);
  };

  return {
    /** Every key, the newest first; revoked ones too (the audit trail names them). */
    async list(): Promise<ApiKey[]> {
      const rows = await selectKeys(db).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
      return rows.map(toApiKey);
    },

    /** A new key acting as `actor`: its whole secret is in this answer and nowhere else. */
    async create(actor: AuditActor, input: ApiKeyCreate): Promise<ApiKeyIssued> {
      const expiresAt = expiryOf(input.expiresAt);
      const { key, result } = await withNewKey((made) =>
        transactionAnswering(db, nameTaken(input.name), async (tx) => {
          const [row] = await tx
            .insert(apiKeys)
            .values({
              name: input.name,
              prefix: made.prefix,
              secretHash: made.secretHash,
              scopes: inOrder(input.scopes),
              rateLimitPerMinute: input.rateLimitPerMinute,
              createdBy: actor.id,
              createdByEmail: actor.email,
              expiresAt,
            })
            .returning({ id: apiKeys.id, rateLimitPerMinute: apiKeys.rateLimitPerMinute });
          await audit(
            tx,
            actor,
            "create",
            row!.id,
            `Created API key ${input.name} (${made.prefix}): ${settingsInWords({
              scopes: inOrder(input.scopes),
              rateLimitPerMinute: row!.rateLimitPerMinute,
              expiresAt,
            })}`,
          );
          return read(tx, row!.id);
        }),
      );
      return { apiKey: result, key };
    },

    /** Renames a key, or changes its scopes, expiry or rate limit; a revoked one is 409. */
    async change(actor: AuditActor, id: string, input: ApiKeyChange): Promise<ApiKey> {
      const expiresAt = input.expiresAt === undefined ? undefined : expiryOf(input.expiresAt);
      return transactionAnswering(db, nameTaken(input.name ?? ""), async (tx) => {
        const was = await lockedLive(tx, id);
        const set = {
          ...(input.name !== undefined && { name: input.name }),
          ...(input.scopes !== undefined && { scopes: inOrder(input.scopes) }),
          ...(expiresAt !== undefined && { expiresAt }),
          ...(input.rateLimitPerMinute !== undefined && {
            rateLimitPerMinute: input.rateLimitPerMinute,
          }),
        };
        await tx.update(apiKeys).set(set).where(eq(apiKeys.id, id));
        const changes = [
          input.name !== undefined && input.name !== was.name && `name ${was.name} → ${input.name}`,
          input.scopes !== undefined && `scopes ${inOrder(input.scopes).join(", ")}`,
          expiresAt !== undefined && `expires ${expiresAt ? expiresAt.toISOString() : "never"}`,
          input.rateLimitPerMinute !== undefined && `${input.rateLimitPerMinute} requests a minute`,
        ].filter(Boolean);
        await audit(
          tx,
          actor,
          "change",
          id,
          `Changed API key ${was.name} (${was.prefix}): ${changes.join("; ")}`,
        );
        return read(tx, id);
      });
    },

    /**
     * A new secret (and prefix) for the key, with the same name, scopes, expiry and rate limit;
     * the old secret is refused from this commit on.
     */
    async rotate(actor: AuditActor, id: string): Promise<ApiKeyIssued> {
      const { key, result } = await withNewKey((made) =>
        db.transaction(async (tx) => {
          const was = await lockedLive(tx, id);
          await tx
            .update(apiKeys)
            .set({ prefix: made.prefix, secretHash: made.secretHash })
            .where(eq(apiKeys.id, id));
          await audit(
            tx,
            actor,
            "rotate",
            id,
            `Rotated API key ${was.name}: ${was.prefix} → ${made.prefix}`,
          );
          return read(tx, id);
        }),
      );
      return { apiKey: result, key };
    },

    /** Revokes a key: refused from this commit on; its row stays, marked revoked. */
    async revoke(actor: AuditActor, id: string): Promise<ApiKey> {
      return db.transaction(async (tx) => {
        const [row] = await selectKeys(tx).where(eq(apiKeys.id, id)).for("update");
        if (!row) throw notFound(say.notFound);
        if (row.revokedAt) throw conflict(say.revokedAlready);
        await tx
          .update(apiKeys)
          .set({ revokedAt: sql`now()` })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
        await audit(tx, actor, "revoke", id, `Revoked API key ${row.name} (${row.prefix})`);
        return read(tx, id);
      });
    },

    /**
     * The key of a request, checked: one read by its prefix, the hash compared in constant time.
     * 401 for a key that is malformed, unknown, revoked, expired, or whose admin is no longer one.
     */
    async authenticate(key: string): Promise<AcceptedKey> {
      const prefix = prefixOf(key);
      if (!prefix) throw unauthorized(say.unknown);
      const [row] = await db
        .select({
          id: apiKeys.id,
          name: apiKeys.name,
          prefix: apiKeys.prefix,
          secretHash: apiKeys.secretHash,
          scopes: apiKeys.scopes,
          rateLimitPerMinute: apiKeys.rateLimitPerMinute,
          revoked: sql<boolean>`${apiKeys.revokedAt} is not null`,
          expired: sql<boolean>`coalesce(${apiKeys.expiresAt} <= now(), false)`,
          userId: user.id,
          email: user.email,
          userName: user.name,
          role: user.role,
          twoFactorEnabled: user.twoFactorEnabled,
          emailVerified: user.emailVerified,
        })
        .from(apiKeys)
        .leftJoin(user, eq(user.id, apiKeys.createdBy))
        .where(eq(apiKeys.prefix, prefix));
      // Only the holder of the whole key learns more than "not valid".
      if (!row || !keyMatches(key, row.secretHash)) throw unauthorized(say.unknown);
      if (row.revoked) throw unauthorized(say.revoked);
      if (row.expired) throw unauthorized(say.expired);
      if (!row.userId || row.role !== "admin") throw unauthorized(say.creatorGone);
      return {
        caller: {
          id: row.userId,
          sessionId: `api-key:${row.id}`,
          email: row.email!,
          name: row.userName!,
          role: "admin",
          twoFactorEnabled: row.twoFactorEnabled ?? false,
          emailVerified: row.emailVerified ?? false,
          secondFactor: false,
          apiKey: { id: row.id, name: row.name, prefix: row.prefix },
        },
        scopes: row.scopes,
        rateLimitPerMinute: row.rateLimitPerMinute,
      };
    },

    /**
     * Counts one request against the key's rate limit (a fixed window of a minute, in
     * PostgreSQL, so every process shares it) and, in the same statement, moves its last use on
     * when it is over a minute old.
     */
    async countUse(accepted: AcceptedKey): Promise<RateLimitResult> {
      const id = accepted.caller.apiKey.id;
      const result = await db.execute<{ count: number; retry_after: number }>(sql`
        with ${rateHitCtes("hit", `api-key:${id}`, 60)},
        touched as (
          update api_keys set last_used_at = now()
          where id = ${id}
            and (last_used_at is null or last_used_at <= now() - interval '1 minute')
          returning 1
        )
        select count, retry_after from hit`);
      return rateHitResult(result.rows[0], accepted.rateLimitPerMinute);
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
