import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  bulkContentTypes,
  bulkMessages as say,
  bulkQuerySchema,
  bulkRefusedSchema,
  bulkResultSchema,
  MAX_BULK_BYTES,
  type BulkKind,
} from "../../contract/bulk";
import { errorAnswers } from "../api-errors";
import { HttpError } from "../errors";
import { caller, type Guards } from "../http/request-context";
import { formatOf, tooLarge } from "./read-lines";
import type { BulkSync } from "./service";

export interface BulkRoutesOptions {
  bulk: BulkSync;
  guards: Guards;
}

/**
 * The body's media type is checked, and a body declared larger than the most one request takes
 * refused, before a byte of it is read (after the caller's checks: 401 and 403 come first).
 */
function checkBody(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) {
  if (!formatOf(req.headers["content-type"])) {
    return done(new HttpError(415, "unsupported_media_type", say.contentType));
  }
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BULK_BYTES) {
    // The rest of the body is not read: the connection closes after the answer.
    reply.header("connection", "close");
    return done(tooLarge());
  }
  done();
}

/** Bulk stock and price sync by part number (docs/bulk-sync.md): admins and API keys. */
export const bulkRoutes: FastifyPluginAsyncZod<BulkRoutesOptions> = async (
  app,
  { bulk, guards },
) => {
  // The body is handed to the route as the stream it arrives as, never read whole by Fastify: the
  // service counts its bytes (MAX_BULK_BYTES) and reads it line by line (read-lines.ts).
  app.addContentTypeParser([...bulkContentTypes], (_req, payload, done) => done(null, payload));

  const route = (kind: BulkKind, summary: string) =>
    app.put(
      `/bulk/${kind}`,
      {
        schema: {
          tags: ["bulk-sync"],
          summary,
          consumes: [...bulkContentTypes],
          querystring: bulkQuerySchema,
          response: {
            200: bulkResultSchema,
            422: bulkRefusedSchema,
            ...errorAnswers(400, 401, 403, 413, 415, 429),
          },
        },
        onRequest: [guards.adminOnly, checkBody],
        config: { apiScope: kind === "stock" ? "inventory:write" : "prices:write" },
      },
      async (req, reply) => {
        const me = caller(req);
        try {
          const result = await bulk[kind]({
            body: req.body as AsyncIterable<Buffer>,
            format: formatOf(req.headers["content-type"])!,
            partial: req.query.partial,
            actor: { id: me.id, email: me.email, apiKey: me.apiKey },
          });
          if (result.applied) return result;
          return reply
            .code(422)
            .send({ error: "rule_broken", message: say.refused(result.counts.errors), ...result });
        } catch (err) {
          // Cut off part-way (too large, too many lines): the rest of the body is not read.
          if (err instanceof HttpError && err.statusCode === 413)
            reply.header("connection", "close");
          throw err;
        }
      },
    );

  route(
    "stock",
    "Set the stock of up to 100,000 parts by part number (text/csv `partNumber,stock` or NDJSON): every line's outcome; all or nothing unless partial=true (admins, or a key with inventory:write)",
  );
  route(
    "prices",
    "Set list prices and price-list prices of up to 100,000 parts by part number (text/csv `partNumber,price,priceList` or NDJSON): every line's outcome; all or nothing unless partial=true (admins, or a key with prices:write)",
  );
};
