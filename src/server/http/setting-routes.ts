import type { FastifyContextConfig } from "fastify";
import type { z } from "zod";
import type { RouteApp } from "./page";
import { caller, type GuardHook, type SessionUser } from "./request-context";

/**
 * A setting read and set as a whole at one path: one of the store's an admin sets (a rule, a
 * window, a policy), or one of the caller's own (their order emails, their profile): its two
 * routes' OpenAPI entries, who may call them, and what they do.
 */
export interface Setting<B extends z.ZodType, A extends z.ZodType> {
  tags: string[];
  /** The setting as it is sent. */
  body: B;
  /** The setting as both routes answer it. */
  answer: A;
  /** The routes' error answers (`errorAnswers(…)`). */
  errors: Record<number, z.ZodType>;
  onRequest: GuardHook;
  config?: FastifyContextConfig;
  readSummary: string;
  /** The setting as it is now, for the caller (`caller(req)`). */
  read: (me: SessionUser) => Promise<z.infer<A>>;
  setSummary: string;
  /** The setting written by the caller (`caller(req)`), answered as it is then. */
  set: (body: z.infer<B>, me: SessionUser) => Promise<z.infer<A>>;
}

/** `GET path` reads the setting; `PUT path` sets it. */
export function settingRoutes<B extends z.ZodType, A extends z.ZodType>(
  app: RouteApp,
  path: string,
  setting: Setting<B, A>,
): void {
  const { tags, body, errors, readSummary, read, setSummary, set, ...rest } = setting;
  const { answer: answerSchema, ...who } = rest;
  // The answer's schema as such: `read` and `set` answer `z.infer<A>`, checked by their types.
  const answer: z.ZodType = answerSchema;
  app.get(
    path,
    { schema: { tags, summary: readSummary, response: { 200: answer, ...errors } }, ...who },
    async (req) => read(caller(req)),
  );
  app.put(
    path,
    { schema: { tags, summary: setSummary, body, response: { 200: answer, ...errors } }, ...who },
    async (req) => set(req.body as z.infer<B>, caller(req)),
  );
}
