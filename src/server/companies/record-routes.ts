import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import type { RouteApp } from "../http/page";
import { caller, type GuardHook, type SessionUser } from "../http/request-context";

/** Who may call a route of a company's records: an admin, or a member (or owner) of its company. */
export interface CompanyPathGuard {
  onRequest: GuardHook;
  preHandler: GuardHook;
}

/**
 * One kind of a company's records at `/companies/:id/<kind>` (its members, invitations, ship-to
 * addresses): what their routes share, the record as answered, its key in the path, their tags
 * and error answers.
 */
export interface CompanyRecords<R extends z.ZodType, P extends z.ZodType> {
  kind: string;
  /** The path's name of one record's key (`userId`, `invitationId`, `addressId`). */
  key: string;
  /** The path of one record, checked: the company's `id` and the record's key. */
  params: P;
  record: R;
  errors: Record<number, z.ZodType>;
}

/**
 * The routes of a company's records of one kind, each with its summary, who may call it and what
 * it does: the list (`GET`), a new one (`POST`, 201), one changed (`PATCH …/:key`) and removed
 * (`DELETE …/:key`, 204). Tags: `companies`. All but the list are given the caller.
 */
export function companyRecordRoutes<R extends z.ZodType, P extends z.ZodType>(
  app: RouteApp,
  records: CompanyRecords<R, P>,
) {
  const { params, errors } = records;
  // The answer's schema as such: the handlers answer `z.infer<R>`, checked by their callers' types.
  const record: z.ZodType = records.record;
  const tags = ["companies"];
  const path = `/companies/:id/${records.kind}`;
  const one = `${path}/:${records.key}`;
  const keyOf = (p: unknown) => (p as Record<string, string>)[records.key]!;
  const companyOf = (p: unknown) => (p as { id: string }).id;
  return {
    /** `GET /companies/:id/<kind>`: the company's records. */
    list(
      summary: string,
      who: CompanyPathGuard,
      list: (companyId: string) => Promise<z.infer<R>[]>,
    ) {
      app.get(
        path,
        {
          schema: {
            tags,
            summary,
            params: idParamsSchema,
            response: { 200: z.array(record), ...errors },
          },
          ...who,
        },
        async (req) => list(req.params.id),
      );
    },
    /** `POST /companies/:id/<kind>`: a new record from the body, answered 201 with it. */
    create<B extends z.ZodType>(
      summary: string,
      body: B,
      who: CompanyPathGuard,
      create: (me: SessionUser, companyId: string, body: z.infer<B>) => Promise<z.infer<R>>,
    ) {
      app.post(
        path,
        {
          schema: {
            tags,
            summary,
            params: idParamsSchema,
            body,
            response: { 201: record, ...errors },
          },
          ...who,
        },
        async (req, reply) =>
          reply
            .code(201)
            .send(await create(caller(req), companyOf(req.params), req.body as z.infer<B>)),
      );
    },
    /** `PATCH /companies/:id/<kind>/:key`: the record changed by the body. */
    update<B extends z.ZodType>(
      summary: string,
      body: B,
      who: CompanyPathGuard,
      update: (
        me: SessionUser,
        companyId: string,
        key: string,
        body: z.infer<B>,
      ) => Promise<z.infer<R>>,
    ) {
      app.patch(
        one,
        { schema: { tags, summary, params, body, response: { 200: record, ...errors } }, ...who },
        async (req) =>
          update(caller(req), companyOf(req.params), keyOf(req.params), req.body as z.infer<B>),
      );
    },
    /** `DELETE /companies/:id/<kind>/:key`: the record removed, answered 204. */
    remove(
      summary: string,
      who: CompanyPathGuard,
      remove: (me: SessionUser, companyId: string, key: string) => Promise<unknown>,
    ) {
      app.delete(
        one,
        { schema: { tags, summary, params, response: { 204: z.null(), ...errors } }, ...who },
        async (req, reply) => {
          await remove(caller(req), companyOf(req.params), keyOf(req.params));
          return reply.code(204).send(null);
        },
      );
    },
  };
}
