import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  MAX_DEADLINE_DAYS,
  warrantyDeadlineSettingsAnswerSchema,
  warrantyDeadlineSettingsSchema,
} from "../../contract/warranty-deadlines";
import { errorAnswers } from "../api-errors";
import type { Guards } from "../http/request-context";
import { settingRoutes } from "../http/setting-routes";
import type { WarrantyDeadlines } from "./deadline-reminders";

const errors = errorAnswers(400, 401, 403, 429);

/** The warranty claims' deadlines and reminders an admin sets (docs/warranty.md). */
export const warrantyDeadlineRoutes: FastifyPluginAsyncZod<{
  deadlines: Pick<WarrantyDeadlines, "settings" | "setSettings">;
  guards: Guards;
}> = async (app, { deadlines, guards }) => {
  settingRoutes(app, "/warranty/settings", {
    tags: ["warranty", "admin"],
    body: warrantyDeadlineSettingsSchema,
    answer: warrantyDeadlineSettingsAnswerSchema,
    errors,
    onRequest: guards.adminOnly,
    readSummary:
      "Admin: the warranty claims' deadlines (the claimant's days to answer or send the part back, the store's days to act, counted from the claim's last change of status) and how many days before one its reminder is emailed; `updatedAt` null: never saved, the store's defaults",
    read: () => deadlines.settings(),
    setSummary: `Admin: set the warranty claims' deadlines (1–${MAX_DEADLINE_DAYS} days each side) and the reminder (days before a deadline, fewer than either side's), for every open claim from now on`,
    set: (body, me) => deadlines.setSettings(body, me),
  });
};
