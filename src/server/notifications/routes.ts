import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
} from "../../contract/notifications";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { NotificationService } from "./service";

const errors = errorAnswers(400, 401, 403);

/** The signed-in customer's choice of optional order emails (My Info). */
export const notificationRoutes: FastifyPluginAsyncZod<{
  notifications: NotificationService;
  guards: Guards;
}> = async (app, { notifications, guards }) => {
  app.get(
    "/user/notifications",
    {
      schema: {
        tags: ["users"],
        summary: "Which optional order emails the signed-in user receives",
        response: { 200: notificationPreferencesSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return notifications.get(me.id);
    },
  );

  app.put(
    "/user/notifications",
    {
      schema: {
        tags: ["users"],
        summary: "Turn optional order emails on or off (placed, paid, cancelled always go)",
        body: notificationPreferencesUpdateSchema,
        response: { 200: notificationPreferencesSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return notifications.update(me.id, req.body);
    },
  );
};
