import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import {
  cartItemsInputSchema,
  cartProductParamsSchema,
  cartQtySchema,
  cartQuoteSchema,
  cartSchema,
  type Cart,
} from "../../contract/cart";
import { caller, type Guards } from "../http/request-context";
import type { CartService } from "./service";
import type { PricingMarket } from "../pricing/pricing";
import type { RequestMarkets } from "../pricing/request-market";
import { applyDiscountCodeSchema } from "../../contract/discount-codes";
import { errorAnswers } from "../api-errors";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/**
 * The cart (its checkout is in checkout/routes.ts), priced in the request's market (docs/pricing.md
 * "The market chosen"). Admins do not order: every route of the account's cart is 403.
 */
export const cartRoutes: FastifyPluginAsyncZod<{
  cart: CartService;
  guards: Guards;
  markets: Pick<RequestMarkets, "of" | "forDestination">;
}> = async (app, { cart, guards, markets }) => {
  /**
   * A route of your own cart: customers only, answered the cart as it is then, priced in your
   * market; `answer` is given your id, that market and the request's params and body.
   */
  const yourCart = <P extends z.ZodType, B extends z.ZodType>(
    method: "get" | "put" | "post" | "delete",
    path: string,
    { summary, ...input }: { summary: string; params?: P; body?: B },
    answer: (
      me: string,
      market: PricingMarket | undefined,
      req: { params: z.infer<P>; body: z.infer<B> },
    ) => Promise<Cart>,
  ) =>
    app[method](
      path,
      {
        schema: { tags: ["cart"], summary, ...input, response: { 200: cartSchema, ...errors } },
        onRequest: guards.customerOnly,
      },
      async (req) => {
        const me = caller(req).id;
        const market = await markets.of(req, me);
        return answer(me, market, req as { params: z.infer<P>; body: z.infer<B> });
      },
    );

  yourCart(
    "get",
    "/cart",
    { summary: "Your cart, priced now, each line with what stands in the way of ordering it" },
    (me, market) => cart.get(me, market),
  );

  yourCart(
    "put",
    "/cart/items/:productId",
    {
      summary:
        "Put a part in your cart with this quantity (adds it, or changes the quantity), optionally for a vehicle (the line keeps the latest one sent; the order line keeps it)",
      params: cartProductParamsSchema,
      body: cartQtySchema,
    },
    (me, market, { params, body }) =>
      cart.setQty(me, params.productId, body.qty, body.vehicle, market),
  );

  yourCart(
    "delete",
    "/cart/items/:productId",
    { summary: "Take a part out of your cart", params: cartProductParamsSchema },
    (me, market, { params }) => cart.remove(me, params.productId, market),
  );

  yourCart(
    "put",
    "/cart/discount-code",
    {
      summary:
        "Apply a discount code to your cart (any case; replaces the one before): the cart with its `discount` line, or 422 with why the code cannot be used",
      body: applyDiscountCodeSchema,
    },
    (me, market, { body }) => cart.applyCode(me, body.code, market),
  );

  yourCart(
    "delete",
    "/cart/discount-code",
    { summary: "Take the discount code off your cart" },
    (me, market) => cart.removeCode(me, market),
  );

  yourCart(
    "post",
    "/cart/merge",
    {
      summary:
        "Merge the cart you filled as a visitor into your account's (at sign-in); a part in both keeps the larger quantity, and the visitor's vehicle when it has one",
      body: cartItemsInputSchema,
    },
    (me, market, { body }) => cart.merge(me, body.items, market),
  );

  app.post(
    "/cart/quote",
    {
      schema: {
        tags: ["cart"],
        summary:
          "Price a cart as the catalog is now, with shipping options, shipping, tax and total: a visitor's lines (`items`) or your own cart, for a saved address of yours (`addressId`) or a country and postal code (`estimate`); stores nothing",
        body: cartQuoteSchema,
        response: { 200: cartSchema, ...errors },
      },
    },
    async (req) => {
      const me = await guards.currentUser(req);
      // For a destination: its country's market, and the notice when it is not the buyer's.
      const { market, notice } = await markets.forDestination(req, me?.id, {
        country: req.body.estimate?.country,
        addressId: req.body.addressId,
      });
      const quote = await cart.quote(req.body, me?.id, market);
      return notice ? { ...quote, marketNotice: notice } : quote;
    },
  );
};
