import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  ACCOUNT_GONE_MESSAGE,
  BUSY_MESSAGE,
  DISK_FULL_MESSAGE,
  diskFull,
  HttpError,
  UNAVAILABLE_MESSAGE,
} from "./errors";
import { postgresError } from "./db/postgres-errors";

export { UNAVAILABLE_MESSAGE } from "./errors";

/** One place that turns any error into `{ error, message }`; 5xx details are logged, not shown. */
export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof HttpError) {
    if (err.statusCode === 503) reply.header("retry-after", "1");
    return reply
      .code(err.statusCode)
      .send({ error: err.code, message: err.message, fields: err.fields });
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const fields: Record<string, string> = {};
    for (const issue of err.validation) {
      const where =
        issue.instancePath.replace(/^\//, "").replaceAll("/", ".") ||
        err.validationContext ||
        "request";
      fields[where] ??= issue.message ?? "Invalid value";
    }
    const message = Object.entries(fields)
      .map(([field, msg]) => `${field}: ${msg}`)
      .join("; ");
    return reply.code(400).send({ error: "validation", message, fields });
  }
  const database = databaseAnswer(err);
  if (database) {
    if (database.statusCode >= 500) req.log.warn({ err }, "request failed: database busy");
    if (database.statusCode === 503) reply.header("retry-after", "1");
    return reply
      .code(database.statusCode)
      .send({ error: database.code, message: database.message });
  }
  if (isDiskFull(err)) {
    req.log.error({ err }, "request failed: disk full");
    return reply.code(507).send({ error: "insufficient_storage", message: DISK_FULL_MESSAGE });
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, body too large, wrong content type, ...
    return reply.code(status).send({ error: err.code ?? "bad_request", message: err.message });
  }
  req.log.error({ err }, "request failed");
  return reply
    .code(status >= 500 && status < 600 ? status : 500)
    .send({ error: "internal", message: "Something went wrong on our side. Please try again." });
}

/**
 * PostgreSQL errors that input or a race can cause, as the answer the client should get. The
 * contracts refuse such input first; this is the net under them (and under Better Auth, whose
 * bodies have no contract of ours).
 */
export function fromDatabaseError(err: unknown): HttpError | undefined {
  const pg = postgresError(err);
  switch (pg?.code) {
    case "23503": // foreign_key_violation: what a row refers to was removed meanwhile
      return pg.detail?.includes('is not present in table "user"')
        ? new HttpError(404, "not_found", ACCOUNT_GONE_MESSAGE)
        : new HttpError(409, "conflict", "Something this refers to was removed meanwhile");
    case "22021": // character_not_in_repertoire (NUL, invalid UTF-8)
    case "22P05": // untranslatable_character
      return new HttpError(400, "validation", "Text must not contain control characters");
    case "22003": // numeric_value_out_of_range
      return new HttpError(422, "rule_broken", "A number in this request is too large");
    case "53100": // disk_full: PostgreSQL could not extend a file (nothing was written)
      return diskFull();
    case "54001": // statement_too_complex
      return new HttpError(400, "bad_request", "This request is too complex");
    case "40001": // serialization_failure
    case "40P01": // deadlock_detected
    case "55P03": // lock_not_available: DB_LOCK_TIMEOUT_SECONDS waited for a locked row
      return new HttpError(503, "busy", BUSY_MESSAGE);
    case "57014": // query_canceled: statement_timeout (the transaction rolled back)
    case "25P03": // idle_in_transaction_session_timeout
    case "53300": // too_many_connections
    case "57P01": // admin_shutdown
    case "57P02": // crash_shutdown
    case "57P03": // cannot_connect_now (starting up, shutting down, recovering)
      return new HttpError(503, "unavailable", UNAVAILABLE_MESSAGE);
    default:
      return pg?.code.startsWith("08") // connection_exception and its kind
        ? new HttpError(503, "unavailable", UNAVAILABLE_MESSAGE)
        : undefined;
  }
}

/** The answer a failed database call gets: its error's meaning, or 503 when it cannot be reached. */
export function databaseAnswer(err: unknown): HttpError | undefined {
  return fromDatabaseError(err) ?? unavailable(err);
}

/** Node's errors for a database that cannot be reached or went away mid-request. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
/** What `pg` throws (without a code) when a connection fails, dies or cannot be had in time. */
const UNREACHABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "is not queryable",
];

/** The database is unreachable, restarting or too slow: the client should retry shortly. */
function unavailable(err: unknown): HttpError | undefined {
  for (let e = err, hops = 0; e && typeof e === "object" && hops < 5; hops++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    const unreachable =
      (typeof code === "string" && UNREACHABLE_CODES.has(code)) ||
      (typeof message === "string" && UNREACHABLE_MESSAGES.some((m) => message.includes(m)));
    if (unreachable) return new HttpError(503, "unavailable", UNAVAILABLE_MESSAGE);
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A file write that found no room (the uploads folder's disk, or a quota). */
function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}
