import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  cartItemsInputSchema,
  cartProductParamsSchema,
  cartQtySchema,
  cartQuoteSchema,
  cartSchema,
} from "../../contract/cart";
import { caller, type Guards } from "../http/request-context";
import type { CartService } from "./service";
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
  app.get(
    "/cart",
    {
      schema: {
        tags: ["cart"],
        summary: "Your cart, priced now, each line with what stands in the way of ordering it",
        response: { 200: cartSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => cart.get(caller(req).id, await markets.of(req, caller(req).id)),
  );

  app.put(
    "/cart/items/:productId",
    {
      schema: {
        tags: ["cart"],
        summary:
          "Put a part in your cart with this quantity (adds it, or changes the quantity), optionally for a vehicle (the line keeps the latest one sent; the order line keeps it)",
        params: cartProductParamsSchema,
        body: cartQtySchema,
        response: { 200: cartSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      const market = await markets.of(req, me.id);
      return cart.setQty(me.id, req.params.productId, req.body.qty, req.body.vehicle, market);
    },
  );

  app.delete(
    "/cart/items/:productId",
    {
      schema: {
        tags: ["cart"],
        summary: "Take a part out of your cart",
        params: cartProductParamsSchema,
        response: { 200: cartSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      return cart.remove(me.id, req.params.productId, await markets.of(req, me.id));
    },
  );

  app.put(
    "/cart/discount-code",
    {
      schema: {
        tags: ["cart"],
        summary:
          "Apply a discount code to your cart (any case; replaces the one before): the cart with its `discount` line, or 422 with why the code cannot be used",
        body: applyDiscountCodeSchema,
        response: { 200: cartSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      return cart.applyCode(me.id, req.body.code, await markets.of(req, me.id));
    },
  );

  app.delete(
    "/cart/discount-code",
    {
      schema: {
        tags: ["cart"],
        summary: "Take the discount code off your cart",
        response: { 200: cartSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => cart.removeCode(caller(req).id, await markets.of(req, caller(req).id)),
  );

  app.post(
    "/cart/merge",
    {
      schema: {
        tags: ["cart"],
        summary:
          "Merge the cart you filled as a visitor into your account's (at sign-in); a part in both keeps the larger quantity, and the visitor's vehicle when it has one",
        body: cartItemsInputSchema,
        response: { 200: cartSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      return cart.merge(me.id, req.body.items, await markets.of(req, me.id));
    },
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
