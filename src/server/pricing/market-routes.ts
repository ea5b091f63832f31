import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { marketInputSchema, marketSchema, marketUpdateSchema } from "../../contract/markets";
import { actor, adminErrors } from "./admin-answers";
import { onEachWrite } from "../http/each-write";
import { recordRoutes } from "../http/record-routes";
import type { Guards } from "../http/request-context";
import type { MarketService } from "./markets";

/** Markets: the active ones for everyone, every one and their changes for admins (docs/pricing.md). */
export const marketRoutes: FastifyPluginAsyncZod<{
  markets: MarketService;
  guards: Guards;
  /** Told of every successful change (this process's market cache is cleared as it answers). */
  marketsChanged?: () => void;
}> = async (app, { markets, guards, marketsChanged }) => {
  // The writer's next read never waits for the NOTIFY (migration 0093) the other processes hear.
  onEachWrite(app, () => marketsChanged?.());
  const config = { apiScope: "prices:write" } as const;
  const onRequest = guards.adminOnly;

  app.get(
    "/markets",
    {
      schema: {
        tags: ["pricing"],
        summary:
          "The active markets (the default first): currency, countries, rate from the store's currency, rounding, VAT shown; admins get the inactive ones too",
        response: { 200: z.array(marketSchema) },
      },
    },
    async (req) => {
      const me = await guards.currentUser(req);
      return markets.list(me?.role === "admin");
    },
  );

  const adminMarkets = recordRoutes(app, "/markets", {
    tags: ["pricing", "admin"],
    record: marketSchema,
    errors: adminErrors,
    onRequest,
    config,
  });
  adminMarkets.create(
    "Admin: a new market: `code`, `name`, `currency` (USD, EUR, GBP), `countries` (ISO codes, each in one market), `rate` from the store's currency, `rounding`, `pricesIncludeTax`, `active`",
    marketInputSchema,
    (body, me) => markets.create(actor(me), body),
  );
  adminMarkets.update(
    "Admin: change a market: the whole market again, as when it was created (the default market stays the store's currency at rate 1, active)",
    marketUpdateSchema,
    (id, body, me) => markets.update(actor(me), id, body),
  );
};
