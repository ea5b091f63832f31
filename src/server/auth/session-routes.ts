import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  activeSessionListSchema,
  endOtherSessionsQuerySchema,
  endedSessionsSchema,
  sessionIdParamsSchema,
} from "../../contract/auth";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { SessionService } from "./sessions";

const errors = errorAnswers(400, 401, 403);

/** The signed-in user's own sessions (My Profile): list them, end one, end all the others. */
export const sessionRoutes: FastifyPluginAsyncZod<{
  sessions: SessionService;
  guards: Guards;
}> = async (app, { sessions, guards }) => {
  app.get(
    "/user/sessions",
    {
      schema: {
        tags: ["users"],
        summary: "Where the signed-in user is signed in (this session marked current)",
        response: { 200: activeSessionListSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return { sessions: await sessions.list(me.id, me.sessionId) };
    },
  );

  app.delete(
    "/user/sessions/:id",
    {
      schema: {
        tags: ["users"],
        summary: "End one of the signed-in user's sessions (another account's: 404)",
        params: sessionIdParamsSchema,
        response: { 204: z.null(), ...errorAnswers(404), ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req, reply) => {
      const me = caller(req);
      await sessions.end(me.id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    "/user/sessions",
    {
      schema: {
        tags: ["users"],
        summary: "Sign out every other browser of the signed-in user (`?except=current`)",
        querystring: endOtherSessionsQuerySchema,
        response: { 200: endedSessionsSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return { ended: await sessions.endOthers(me.id, me.sessionId) };
    },
  );
};
