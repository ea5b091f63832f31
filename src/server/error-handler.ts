import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ACCOUNT_GONE_MESSAGE, HttpError } from "./errors";

/** One place that turns any error into `{ error, message }`; 5xx details are logged, not shown. */
export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof HttpError) {
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
  const database = fromDatabaseError(err);
  if (database) {
    if (database.statusCode >= 500) req.log.warn({ err }, "request failed: database busy");
    if (database.statusCode === 503) reply.header("retry-after", "1");
    return reply
      .code(database.statusCode)
      .send({ error: database.code, message: database.message });
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
    case "54001": // statement_too_complex
      return new HttpError(400, "bad_request", "This request is too complex");
    case "40001": // serialization_failure
    case "40P01": // deadlock_detected
      return new HttpError(503, "busy", "The store is busy. Please try again in a moment.");
    default:
      return undefined;
  }
}

/** The PostgreSQL error behind `err` (Drizzle wraps it in `cause`), if there is one. */
function postgresError(err: unknown): { code: string; detail?: string } | undefined {
  for (let e = err, hops = 0; e && typeof e === "object" && hops < 5; hops++) {
    const { code, severity, detail } = e as {
      code?: unknown;
      severity?: unknown;
      detail?: unknown;
    };
    if (typeof code === "string" && typeof severity === "string") {
      return { code, detail: typeof detail === "string" ? detail : undefined };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
