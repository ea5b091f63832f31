import type { FastifyContextConfig, FastifyRequest } from "fastify";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { caller, type GuardHook, type SessionUser } from "./request-context";
import type { RouteApp } from "./page";

/**
 * A collection of records, an admin's (tax rates, shipping zones, locations, customer groups, …)
 * or the caller's own (addresses, saved lists): what the routes of its records share, the record
 * as answered and who may call them.
 */
export interface RecordCollection<R extends z.ZodType> {
  tags: string[];
  /** One record as the routes answer it. */
  record: R;
  /** The routes' error answers (`errorAnswers(…)`). */
  errors: Record<number, z.ZodType>;
  onRequest: GuardHook;
  config?: FastifyContextConfig;
}

/**
 * The routes of a collection of records at `path`, each with its summary and what it does: the
 * list (`GET path`), a new record (`POST path`, 201), one record (`GET path/:id`), a record replaced
 * or changed (`PUT`/`PATCH path/:id`) and removed (`DELETE path/:id`, 204). All but the list are
 * given the caller (`caller(req)`) and the request; `:id` is checked by `idParamsSchema`.
 */
export function recordRoutes<R extends z.ZodType>(
  app: RouteApp,
  path: string,
  collection: RecordCollection<R>,
) {
  const { tags, errors, ...who } = collection;
  // The answer's schema as such: the handlers answer `z.infer<R>`, checked by their callers' types.
  const record: z.ZodType = collection.record;
  const one = `${path}/:id`;
  const params = idParamsSchema;
  const change =
    (method: "put" | "patch") =>
    <B extends z.ZodType>(
      summary: string,
      body: B,
      write: (
        id: string,
        body: z.infer<B>,
        me: SessionUser,
        req: FastifyRequest,
      ) => Promise<z.infer<R>>,
    ): void => {
      app[method](
        one,
        { schema: { tags, summary, params, body, response: { 200: record, ...errors } }, ...who },
        async (req) => {
          const me = caller(req);
          return write((req.params as { id: string }).id, req.body as z.infer<B>, me, req);
        },
      );
    };
  return {
    /** `GET path`: every record. */
    list(summary: string, list: () => Promise<z.infer<R>[]>) {
      app.get(
        path,
        { schema: { tags, summary, response: { 200: z.array(record), ...errors } }, ...who },
        async () => list(),
      );
    },
    /** `POST path`: a new record from the body, answered 201 with it. */
    create<B extends z.ZodType>(
      summary: string,
      body: B,
      create: (body: z.infer<B>, me: SessionUser, req: FastifyRequest) => Promise<z.infer<R>>,
    ) {
      app.post(
        path,
        { schema: { tags, summary, body, response: { 201: record, ...errors } }, ...who },
        async (req, reply) => {
          const me = caller(req);
          return reply.code(201).send(await create(req.body as z.infer<B>, me, req));
        },
      );
    },
    /** `GET path/:id`: one record. */
    get(
      summary: string,
      get: (id: string, me: SessionUser, req: FastifyRequest) => Promise<z.infer<R>>,
    ) {
      app.get(
        one,
        { schema: { tags, summary, params, response: { 200: record, ...errors } }, ...who },
        async (req) => {
          const me = caller(req);
          return get((req.params as { id: string }).id, me, req);
        },
      );
    },
    /** `PUT path/:id`: the record replaced by the body (all of it sent again). */
    replace: change("put"),
    /** `PATCH path/:id`: the record changed by the body. */
    update: change("patch"),
    /** `DELETE path/:id`: the record removed (or switched off), answered 204. */
    remove(
      summary: string,
      remove: (id: string, me: SessionUser, req: FastifyRequest) => Promise<unknown>,
    ) {
      app.delete(
        one,
        { schema: { tags, summary, params, response: { 204: z.null(), ...errors } }, ...who },
        async (req, reply) => {
          const me = caller(req);
          await remove((req.params as { id: string }).id, me, req);
          return reply.code(204).send(null);
        },
      );
    },
  };
}
