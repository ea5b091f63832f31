import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  customerGroupCreateSchema,
  customerGroupSchema,
  customerGroupUpdateSchema,
  priceRuleInputSchema,
  priceRuleParamsSchema,
  priceRuleSchema,
} from "../../contract/customer-groups";
import { actor, adminErrors } from "./admin-answers";
import { onEachWrite } from "../http/each-write";
import { recordRoutes } from "../http/record-routes";
import { caller, type Guards } from "../http/request-context";
import type { CustomerGroupService } from "./groups";

const admin = (summary: string) => ({ tags: ["pricing", "admin"], summary: `Admin: ${summary}` });

/** Customer groups and their price rules (admin only; docs/pricing.md). */
export const customerGroupRoutes: FastifyPluginAsyncZod<{
  groups: CustomerGroupService;
  guards: Guards;
  /** Told of every successful write (the company price cache is cleared). */
  pricesChanged?: () => void;
}> = async (app, { groups, guards, pricesChanged }) => {
  onEachWrite(app, () => pricesChanged?.());
  const config = { apiScope: "prices:write" } as const;
  const onRequest = guards.adminOnly;

  const customerGroups = recordRoutes(app, "/customer-groups", {
    tags: ["pricing", "admin"],
    record: customerGroupSchema,
    errors: adminErrors,
    onRequest,
    config,
  });
  customerGroups.list(
    "Admin: the customer groups (retail first), with their companies and rules counted",
    () => groups.list(),
  );
  customerGroups.create(
    "Admin: a new customer group (`tradeMinimums`: its buyers keep each part's minimum)",
    customerGroupCreateSchema,
    (body, me) => groups.create(actor(me), body),
  );
  customerGroups.update(
    "Admin: rename a customer group or change whether its buyers keep trade minimums",
    customerGroupUpdateSchema,
    (id, body, me) => groups.update(actor(me), id, body),
  );
  customerGroups.remove(
    "Admin: remove a customer group no company belongs to (409 otherwise; retail stays)",
    (id, me) => groups.remove(actor(me), id),
  );

  app.get(
    "/customer-groups/:id/rules",
    {
      schema: {
        ...admin("a customer group's price rules"),
        params: idParamsSchema,
        response: { 200: z.array(priceRuleSchema), ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req) => groups.rules(req.params.id),
  );

  app.post(
    "/customer-groups/:id/rules",
    {
      schema: {
        ...admin(
          "a price rule: `percent` off the list price of a `category`, a `brand` or a part (`partNumber`), between optional `startsOn` and `endsOn` dates",
        ),
        params: idParamsSchema,
        body: priceRuleInputSchema,
        response: { 201: priceRuleSchema, ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) =>
      reply.code(201).send(await groups.addRule(actor(caller(req)), req.params.id, req.body)),
  );

  app.patch(
    "/customer-groups/:id/rules/:ruleId",
    {
      schema: {
        ...admin("change a price rule: the whole rule again, as when it was added"),
        params: priceRuleParamsSchema,
        body: priceRuleInputSchema,
        response: { 200: priceRuleSchema, ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req) =>
      groups.updateRule(actor(caller(req)), req.params.id, req.params.ruleId, req.body),
  );

  app.delete(
    "/customer-groups/:id/rules/:ruleId",
    {
      schema: {
        ...admin("remove a price rule"),
        params: priceRuleParamsSchema,
        response: { 204: z.null(), ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => {
      await groups.removeRule(actor(caller(req)), req.params.id, req.params.ruleId);
      return reply.code(204).send(null);
    },
  );
};
