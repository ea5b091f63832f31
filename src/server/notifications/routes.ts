import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
} from "../../contract/notifications";
import { errorAnswers } from "../api-errors";
import type { Guards } from "../http/request-context";
import { settingRoutes } from "../http/setting-routes";
import type { NotificationService } from "./service";

const errors = errorAnswers(400, 401, 403);

/** The signed-in customer's choice of optional order emails (My Info). */
export const notificationRoutes: FastifyPluginAsyncZod<{
  notifications: NotificationService;
  guards: Guards;
}> = async (app, { notifications, guards }) => {
  settingRoutes(app, "/user/notifications", {
    tags: ["users"],
    body: notificationPreferencesUpdateSchema,
    answer: notificationPreferencesSchema,
    errors,
    onRequest: guards.signedIn,
    readSummary: "Which optional order emails the signed-in user receives",
    read: (me) => notifications.get(me.id),
    setSummary: "Turn optional order emails on or off (placed, paid, cancelled always go)",
    set: (body, me) => notifications.update(me.id, body),
  });
};
