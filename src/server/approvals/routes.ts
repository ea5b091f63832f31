import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  approvalDecisionSchema,
  approvalMessages,
  approvalListQuerySchema,
  approvalOrderParamsSchema,
  approvalOutcomeSchema,
  approvalSchema,
  approvalSettingsAnswerSchema,
  approvalSettingsSchema,
} from "../../contract/approvals";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { caller, companyOf, type Guards } from "../http/request-context";
import { settingRoutes } from "../http/setting-routes";
import { forbidden } from "../errors";
import type { ApprovalService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409);

/**
 * `/approvals` (DESIGN.md section 7): a company's owners list its orders awaiting approval and
 * decide them; admins see every company's list, read only, and set the approval window and the
 * owners' reminder (`/approvals/settings`).
 */
export const approvalRoutes: FastifyPluginAsyncZod<{
  approvals: ApprovalService;
  guards: Guards;
}> = async (app, { approvals, guards }) => {
  const onlyOwners = () => forbidden(approvalMessages.onlyOwners);
  pagedListRoute(
    app,
    "/approvals",
    {
      tags: ["companies", "orders"],
      summary:
        "Orders awaiting approval, oldest first, paged (total in X-Total-Count), searched by `q` (buyer, email, company, order number, part or PO): your company's, for its owners; every company's, for admins (read only)",
      querystring: approvalListQuerySchema,
      item: approvalSchema,
      errors,
      onRequest: guards.customerOrAdmin,
      // Admins go through with no company: every company's list.
      preHandler: guards.companyOwner({ outsider: onlyOwners }),
    },
    (query, req) => approvals.list(companyOf(req)?.companyId ?? null, query),
  );

  settingRoutes(app, "/approvals/settings", {
    tags: ["companies", "admin"],
    body: approvalSettingsSchema,
    answer: approvalSettingsAnswerSchema,
    errors,
    onRequest: guards.adminOnly,
    readSummary:
      "Admin: the approval window (business days an order awaiting approval keeps its stock) and how many hours before its end the owners are reminded; `updatedAt` null: never saved, the store's defaults",
    read: () => approvals.settings(),
    setSummary:
      "Admin: set the approval window (1–30 business days) and the owners' reminder (whole hours, before the window ends), for orders placed and reminders sent from now on",
    set: (body, me) => approvals.setSettings(body, me),
  });

  for (const [action, decision] of [
    ["approve", "approved"],
    ["decline", "declined"],
  ] as const) {
    app.post(
      `/approvals/:orderId/${action}`,
      {
        schema: {
          tags: ["companies", "orders"],
          summary:
            decision === "approved"
              ? "An owner of the order's company approves it, with an optional note: it becomes an unpaid order the buyer can pay (its hold restarts now); the buyer is emailed"
              : "An owner of the order's company declines it, with an optional note: it is cancelled and its stock goes back on sale; the buyer is emailed",
          params: approvalOrderParamsSchema,
          body: approvalDecisionSchema,
          response: { 200: approvalOutcomeSchema, ...errors },
        },
        onRequest: guards.customerOrAdmin,
        preHandler: guards.companyOwner({
          outsider: onlyOwners,
          admin: () => forbidden(approvalMessages.adminsReadOnly),
        }),
      },
      async (req) =>
        approvals.decide(
          caller(req),
          companyOf(req)!.companyId,
          req.params.orderId,
          decision,
          req.body.note ? req.body.note : null,
        ),
    );
  }
};
