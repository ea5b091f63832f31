import type { FastifyContextConfig, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";
import type { GuardHook } from "./request-context";

/** A page of a list: its items and how many there are in all. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** Answers a page of a list: its items as the body, how many there are in all in X-Total-Count. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  reply.header(TOTAL_COUNT_HEADER, page.total);
  return page.items;
}

/** The app a module's routes are registered on (`FastifyPluginAsyncZod`'s). */
export type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/** A paged list's route: what its OpenAPI entry says and who may call it. */
export interface PagedListRoute<Q extends z.ZodType, I extends z.ZodType> {
  tags: string[];
  summary: string;
  /** The query it is read by (its page, search and filters). */
  querystring: Q;
  /** One item of the page: the answer is an array of them. */
  item: I;
  /** Its error answers (`errorAnswers(…)`). */
  errors: Record<number, z.ZodType>;
  onRequest?: GuardHook;
  preHandler?: GuardHook;
  config?: FastifyContextConfig;
}

/**
 * `GET path`, a page of a list: the query checked by `route.querystring`, the page `list` reads
 * (a `pageOf`-based service) answered by `sendPage` (X-Total-Count).
 */
export function pagedListRoute<Q extends z.ZodType, I extends z.ZodType>(
  app: RouteApp,
  path: string,
  route: PagedListRoute<Q, I>,
  list: (query: z.infer<Q>, req: FastifyRequest) => Promise<Page<z.infer<I>>>,
): void {
  const { tags, summary, querystring, item, errors, ...who } = route;
  app.get(
    path,
    {
      schema: { tags, summary, querystring, response: { 200: z.array(item), ...errors } },
      ...who,
    },
    async (req, reply) => sendPage(reply, await list(req.query as z.infer<Q>, req)),
  );
}
