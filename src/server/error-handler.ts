import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { HttpError } from "./errors";

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
