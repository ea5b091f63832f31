import { and, eq, inArray, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  cartMessages,
  MAX_CART_LINES,
  type Cart,
  type CartItemInput,
  type CartLine,
  type CartQuote,
} from "../../contract/cart";
import { MAX_ORDER_QTY, orderMessages } from "../../contract/orders";
import type { Db, DbOrTx } from "../db/database";
import { cartItems } from "./tables";
import { holdingStatuses } from "../../contract/orders";
import { orderItems, orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { conflict, notFound, unauthorized, unprocessable } from "../errors";
import { computeCharges, type ChargeFacts } from "../charges/estimate";
import { readCharges, type DestinationSource } from "../charges/read";
import { deliveryByMethod } from "../shipping/delivery-quote";
import type { DeliveryEstimate } from "../../contract/shipping";
import { percentFromMilli } from "../tax/rules";
import { centsToUnits, formatCents } from "../money";
import {
  minimumFor,
  priceLines,
  pricingFor,
  quantityProblem,
  unitPriceFor,
  inMarketOf,
  type PricingMarket,
} from "../pricing/pricing";
import { atDeliveryRate, chargesFor, priceInMarket } from "../pricing/market-money";
import {
  cartCodeOf,
  cartDiscountFor,
  clearCartCode,
  knownCode,
  refused,
  setCartCode,
  type CodeRow,
} from "../pricing/discount-codes";
import { lockCustomer, lockCustomerSql } from "../users/service";
import { backorderOffers, type BackorderOffer } from "../inventory/backorders";
import type { VehicleQuery } from "../../contract/vehicles";
import {
  keptVehicleJson,
  lineVehicleJson,
  unknownLineVehicle,
  type LineVehicle,
} from "../vehicles/service";

/** The most a line may order: the shelf, and what a backorder without lead time still takes. */
const backorderMost = (onShelf: number, offer: BackorderOffer | undefined) =>
  offer && offer.most !== null && offer.on ? onShelf + offer.most : onShelf;

/** A cart line as stored: the product, how many, and what the customer saw when adding it. */
interface StoredLine {
  productId: string;
  qty: number;
  productName?: string;
  seenPriceCents?: number;
  /** The vehicle it was added for, as the catalog names it now (null: none). */
  vehicle?: LineVehicle | null;
}

/**
 * The cart: a signed-in customer's is kept here (it survives signing out and follows them to
 * another device); a visitor's lives in the browser and is priced here, then merged into the
 * account's at sign-in. Every line is priced from the catalog as it is now and says what stands
 * in the way of ordering it. Checking out turns the whole cart into one order.
 */
export function createCartService(
  db: Db,
  opts: {
    currency: string;
    /** STORE_COUNTRY, for the EU reverse charge. */ sellerCountry?: string;
  },
) {
  /**
   * Prices stored lines from the catalog and checks each against the order rules; with a
   * destination, adds its shipping options, shipping and tax (`checkout/charges.ts`, the same
   * function the checkout decides with).
   */
  async function price(
    tx: DbOrTx,
    stored: StoredLine[],
    userId?: string,
    delivery?: { facts: ChargeFacts; postalCode: string; methodId?: string | null },
    /** A code to price with instead of the one applied to the cart (being applied). */
    withCode?: CodeRow,
    /** The market it is priced in (docs/pricing.md "Markets and currencies"); absent: none. */
    market?: PricingMarket,
  ): Promise<Cart> {
    const ids = stored.map((l) => l.productId);
    const [found, alreadyOrdered, read, code] = await Promise.all([
      ids.length === 0
        ? []
        : tx
            .select({
              id: products.id,
              name: products.name,
              img: products.img,
              priceCents: products.priceCents,
              minimumOrder: products.minimumOrder,
              retailMinimum: products.retailMinimum,
              packSize: products.packSize,
              availableQuantity: products.availableQuantity,
              weightGrams: products.weightGrams,
              coreDepositCents: products.coreDepositCents,
              breaks: products.breaks,
              category: products.category,
            })
            .from(products)
            .where(inArray(products.id, ids)),
      userId && ids.length > 0 ? unpaidProductsOf(tx, userId, ids) : new Set<string>(),
      ids.length > 0
        ? pricingFor(tx, userId, opts.currency, ids, market)
        : inMarketOf({ currency: opts.currency }, market),
      withCode ?? (userId && ids.length > 0 ? cartCodeOf(tx, userId) : undefined),
    ]);
    const pricing = atDeliveryRate(read, delivery?.facts); // gross at its VAT rate (docs/tax.md)
    const byId = new Map(found.map((p) => [p.id, p]));
    // Lines above the shelf: what their parts offer the rest at, where they take backorders.
    const offers = await backorderOffers(
      tx,
      stored.flatMap((l) => {
        const p = byId.get(l.productId);
        return p && l.qty > p.availableQuantity
          ? [{ productId: p.id, units: l.qty - p.availableQuantity }]
          : [];
      }),
    );
    // Every price through the pricing module (a company buyer's own prices included).
    const pricedLines = new Map(
      priceLines(
        pricing,
        stored.flatMap((line) => {
          const p = byId.get(line.productId);
          return p
            ? [
                {
                  productId: p.id,
                  qty: line.qty,
                  listPriceCents: p.priceCents,
                  publicBreaks: p.breaks,
                },
              ]
            : [];
        }),
      ).map((l) => [l.productId, l]),
    );
    type Priced = Omit<CartLine, "tax"> & { cents: number; grams: number; deposit: number };
    const lines = stored.map((line): Priced => {
      const p = byId.get(line.productId);
      if (!p) {
        return {
          productId: line.productId,
          productName: line.productName ?? "A deleted part",
          img: null,
          qty: line.qty,
          unitPrice: 0,
          lineTotal: 0,
          minimumOrder: 0,
          availableQuantity: 0,
          problem: cartMessages.deleted,
          backorder: null,
          notice: null,
          priceNote: null,
          coreDeposit: 0,
          vehicle: line.vehicle?.label ?? null,
          cents: 0,
          grams: 0,
          deposit: 0,
        };
      }
      const offer = offers.get(p.id);
      const units = line.qty - p.availableQuantity;
      // The buyer's minimum order and pack size (docs/pricing.md "Quantities by group").
      const minimumOrder = minimumFor(pricing, p);
      const quantity = quantityProblem(pricing, p, line.qty);
      // Taken on backorder: the offer dates them, within what it takes.
      const backorder =
        offer && offer.on && units <= (offer.most ?? Infinity)
          ? { qty: units, expectedOn: offer.on }
          : null;
      const problem = alreadyOrdered.has(p.id)
        ? orderMessages.duplicate
        : p.availableQuantity === 0 && !backorder
          ? cartMessages.outOfStock
          : (quantity ??
            (line.qty > p.availableQuantity && !backorder
              ? orderMessages.lessThen(backorderMost(p.availableQuantity, offer))
              : null));
      const { unitPriceCents: priceCents, note: priceNote } = pricedLines.get(p.id)!;
      // Seen in the store's currency: in a market, as the market converts it (`inMarket`).
      const seen =
        line.seenPriceCents &&
        priceInMarket(line.seenPriceCents, pricing.market, pricing.taxIncluded);
      const money = (cents: number) => formatCents(cents, pricing.currency);
      const deposit = priceInMarket(p.coreDepositCents ?? 0, pricing.market); // the parts' currency
      return {
        productId: p.id,
        productName: p.name,
        img: p.img,
        qty: line.qty,
        unitPrice: centsToUnits(priceCents),
        lineTotal: centsToUnits(priceCents * line.qty),
        minimumOrder,
        availableQuantity: p.availableQuantity,
        problem,
        backorder,
        priceNote,
        notice:
          seen !== undefined && seen !== priceCents
            ? cartMessages.repriced(money(seen), money(priceCents))
            : null,
        coreDeposit: centsToUnits(deposit),
        vehicle: line.vehicle?.label ?? null,
        cents: priceCents * line.qty,
        grams: p.weightGrams * line.qty,
        deposit: deposit * line.qty,
      };
    });
    const priced = lines.filter((l) => l.problem !== cartMessages.deleted);
    // The discount code after the group's price, before tax (docs/pricing.md "Discount codes").
    const off = await cartDiscountFor(tx, code, userId, pricing, priced, (id) => byId.get(id));
    const charges = computeCharges(
      priced.map((l, i) => ({
        lineTotalCents: l.cents - off.perLine[i]!,
        weightGrams: l.grams,
        coreDepositCents: l.deposit,
      })),
      chargesFor(delivery?.facts ?? { place: null, zones: [], rates: [] }, pricing),
      delivery?.methodId,
      { lenient: true },
    );
    const taxOf = new Map(priced.map((l, i) => [l, charges.lineTax[i]!]));
    const place = delivery?.facts.place;
    // When each option would arrive, from where the parts ship now (docs/shipping.md).
    const arrives = place
      ? await deliveryByMethod(tx, priced, place, charges.options, new Date())
      : new Map<string, DeliveryEstimate | null>();
    return {
      lines: lines.map(({ cents: _cents, grams: _grams, deposit: _deposit, ...line }, i) => ({
        ...line,
        tax: centsToUnits(taxOf.get(lines[i]!) ?? 0),
      })),
      count: priced.reduce((n, l) => n + l.qty, 0),
      subtotal: centsToUnits(charges.subtotalCents + off.totalCents),
      discount: off.discount,
      discountProblem: off.problem,
      coreDeposits: centsToUnits(charges.coreDepositCents),
      currency: pricing.currency,
      canCheckout: lines.length > 0 && lines.every((l) => l.problem === null),
      destination: place
        ? { country: place.country, region: place.region, postalCode: delivery!.postalCode }
        : null,
      shippingOptions: charges.options.map((o) => ({
        id: o.method.id,
        name: o.method.name,
        estimate: o.method.estimate,
        price: centsToUnits(o.priceCents),
        delivery: arrives.get(o.method.id) ?? null,
      })),
      shippingMethodId: charges.method?.method.id ?? null,
      shipping: centsToUnits(charges.shippingCents),
      tax: centsToUnits(charges.taxCents),
      taxRate:
        charges.taxRateMillipercent === null ? null : percentFromMilli(charges.taxRateMillipercent),
      taxName: charges.taxName,
      taxNote: charges.taxNote,
      total: centsToUnits(charges.totalCents),
      ...(charges.pricesIncludeTax ? { pricesIncludeTax: true } : {}),
      deliveryProblem: charges.problem,
    };
  }

  const storedLines = (tx: DbOrTx, userId: string) =>
    tx
      .select({
        productId: cartItems.productId,
        qty: cartItems.qty,
        productName: cartItems.productName,
        seenPriceCents: cartItems.seenPriceCents,
        // Named from the catalog as it is now, in this same statement.
        vehicle: keptVehicleJson(
          sql`${cartItems.vehicleBaseVehicleId}`,
          sql`${cartItems.vehicleEngineId}`,
        ),
      })
      .from(cartItems)
      .where(eq(cartItems.userId, userId))
      .orderBy(cartItems.addedAt, cartItems.productId);

  const get = async (userId: string, market?: PricingMarket) =>
    price(db, await storedLines(db, userId), userId, undefined, undefined, market);

  return {
    get,

    /**
     * A quote: a visitor's lines (kept in the browser) or, without them, the caller's own cart;
     * with shipping and tax for a saved address of theirs or a country and postal code. Nothing
     * is stored.
     */
    async quote(input: CartQuote, userId?: string, market?: PricingMarket): Promise<Cart> {
      if (input.addressId && !userId) throw unauthorized("Sign in to use a saved address");
      const stored = input.items
        ? await withVehicles(db, dedupe(input.items))
        : userId
          ? await storedLines(db, userId)
          : [];
      const source: DestinationSource = input.addressId
        ? { addressId: input.addressId }
        : input.estimate
          ? { estimate: input.estimate }
          : null;
      const { facts, address } = await readCharges(db, userId, source, opts.sellerCountry);
      const postalCode = address?.postalCode ?? input.estimate?.postalCode ?? "";
      const delivery = { facts, postalCode, methodId: input.shippingMethodId };
      return price(db, stored, input.items ? undefined : userId, delivery, undefined, market);
    },

    /**
     * Puts a part in the account's cart with this quantity (adds the line, or changes it). A
     * `vehicle` (checked against the catalog: unknown is a 400) becomes the line's, replacing the
     * one it had; without one the line keeps its vehicle (docs/vehicle-on-line.md).
     */
    async setQty(
      userId: string,
      productId: string,
      qty: number,
      vehicle?: VehicleQuery,
      market?: PricingMarket,
    ): Promise<Cart> {
      await db.transaction(async (tx) => {
        const [product] = await tx
          .select({
            name: products.name,
            priceCents: products.priceCents,
            breaks: products.breaks,
            // Checked and named in the same statement.
            vehicle: vehicle ? lineVehicleJson(vehicle) : sql<null>`null`,
          })
          .from(products)
          .where(eq(products.id, productId));
        if (!product) throw notFound("Product not found");
        if (vehicle && !product.vehicle) throw unknownLineVehicle();
        const vehicleIds = product.vehicle
          ? {
              vehicleBaseVehicleId: product.vehicle.baseVehicleId,
              vehicleEngineId: product.vehicle.engineId,
            }
          : {};
        await lockCustomer(tx, userId);
        // What they see is their own price at this quantity (a company's price or break).
        const seenPriceCents = unitPriceFor(
          await pricingFor(tx, userId, opts.currency, [productId]),
          { productId, qty, listPriceCents: product.priceCents, publicBreaks: product.breaks },
        );
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(cartItems)
          .where(and(eq(cartItems.userId, userId), sql`${cartItems.productId} <> ${productId}`));
        if (n >= MAX_CART_LINES) throw unprocessable(cartMessages.tooManyLines);
        await tx
          .insert(cartItems)
          .values({
            userId,
            productId,
            productName: product.name,
            qty,
            seenPriceCents,
            ...vehicleIds,
          })
          .onConflictDoUpdate({
            target: [cartItems.userId, cartItems.productId],
            // Changing the quantity is seeing the price again.
            set: { qty, productName: product.name, seenPriceCents, ...vehicleIds },
          });
      });
      return get(userId, market);
    },

    /** Applies a discount code to the account's cart: 422 with the reason when it cannot be used. */
    async applyCode(userId: string, text: string, market?: PricingMarket): Promise<Cart> {
      const code = await knownCode(db, text);
      const cart = await price(db, await storedLines(db, userId), userId, undefined, code, market);
      if (cart.discountProblem) throw refused(cart.discountProblem);
      await setCartCode(db, userId, code.id);
      return cart;
    },

    async removeCode(userId: string, market?: PricingMarket): Promise<Cart> {
      await clearCartCode(db, userId);
      return get(userId, market);
    },

    async remove(userId: string, productId: string, market?: PricingMarket): Promise<Cart> {
      // One statement that moves the customer's revision on as their lock does: a checkout that
      // read the cart before it places nothing of the removed line (checkout/write.ts).
      await db.execute(sql`
        with locked as (${lockCustomerSql(userId)})
        delete from cart_items
         where user_id = ${userId} and product_id = ${productId}
           and exists (select 1 from locked)`);
      return get(userId, market);
    },

    /**
     * Adds these parts to the account's cart in one transaction, all or none (quick order,
     * "Order again", a saved list): a part already in the cart gets the quantities added.
     * `seenPriceCents` is the unit price the customer was shown for it. A part that is no longer
     * in the catalog, or a cart that would grow past its size, refuses the whole addition.
     */
    async addLines(
      userId: string,
      lines: { productId: string; qty: number; seenPriceCents: number }[],
      market?: PricingMarket,
    ): Promise<Cart> {
      const wanted = [
        ...lines
          .reduce((m, l) => {
            const had = m.get(l.productId);
            return m.set(l.productId, had ? { ...l, qty: had.qty + l.qty } : l);
          }, new Map<string, (typeof lines)[number]>())
          .values(),
      ];
      if (wanted.length === 0) return get(userId, market);
      await db.transaction(async (tx) => {
        await lockCustomer(tx, userId);
        const ids = wanted.map((w) => w.productId);
        const found = await tx
          .select({ id: products.id, name: products.name })
          .from(products)
          .where(inArray(products.id, ids));
        const existing = await tx
          .select({ productId: cartItems.productId })
          .from(cartItems)
          .where(eq(cartItems.userId, userId));
        const names = new Map(found.map((p) => [p.id, p.name]));
        if (names.size !== wanted.length) {
          throw conflict("A part is no longer in the catalog: check the lines again");
        }
        const have = new Set(existing.map((e) => e.productId));
        const newLines = wanted.filter((w) => !have.has(w.productId)).length;
        if (have.size + newLines > MAX_CART_LINES) throw unprocessable(cartMessages.tooManyLines);
        const now = Date.now();
        await tx
          .insert(cartItems)
          .values(
            wanted.map((w, i) => ({
              userId,
              productId: w.productId,
              productName: names.get(w.productId)!,
              qty: Math.min(w.qty, MAX_ORDER_QTY),
              seenPriceCents: w.seenPriceCents,
              addedAt: new Date(now + i),
            })),
          )
          .onConflictDoUpdate({
            target: [cartItems.userId, cartItems.productId],
            set: {
              qty: sql`least(${cartItems.qty} + excluded.qty, ${MAX_ORDER_QTY})`,
              productName: sql`excluded.product_name`,
              seenPriceCents: sql`excluded.seen_price_cents`,
            },
          });
      });
      return get(userId, market);
    },

    /**
     * Merges a visitor's cart into the account's at sign-in: a part in both keeps the larger
     * quantity, and the visitor's vehicle when their line has one (it was added last); parts that
     * no longer exist, and lines beyond the cart's size, are left out, and so is a vehicle the
     * catalog does not know (the line is kept without it).
     */
    async merge(userId: string, items: CartItemInput[], market?: PricingMarket): Promise<Cart> {
      const wanted = await withVehicles(db, dedupe(items));
      if (wanted.length > 0) {
        await db.transaction(async (tx) => {
          await lockCustomer(tx, userId);
          const existing = await storedLines(tx, userId);
          const found = await tx
            .select({
              id: products.id,
              name: products.name,
              priceCents: products.priceCents,
              breaks: products.breaks,
            })
            .from(products)
            .where(
              inArray(
                products.id,
                wanted.map((w) => w.productId),
              ),
            );
          const have = new Set(existing.map((l) => l.productId));
          let room = MAX_CART_LINES - existing.length;
          const rows = [];
          // The visitor's lines keep their order after the account's.
          const now = Date.now();
          for (const w of wanted) {
            const p = found.find((f) => f.id === w.productId);
            if (!p) continue;
            if (!have.has(p.id)) {
              if (room === 0) continue;
              room -= 1;
            }
            rows.push({
              userId,
              productId: p.id,
              productName: p.name,
              qty: w.qty,
              // What a visitor saw: the list price, or a public break their quantity reaches.
              seenPriceCents: unitPriceFor(
                { currency: opts.currency },
                {
                  productId: p.id,
                  qty: w.qty,
                  listPriceCents: p.priceCents,
                  publicBreaks: p.breaks,
                },
              ),
              addedAt: new Date(now + rows.length),
              vehicleBaseVehicleId: w.vehicle?.baseVehicleId ?? null,
              vehicleEngineId: w.vehicle?.engineId ?? null,
            });
          }
          if (rows.length === 0) return;
          await tx
            .insert(cartItems)
            .values(rows)
            .onConflictDoUpdate({
              target: [cartItems.userId, cartItems.productId],
              set: {
                qty: sql`greatest(${cartItems.qty}, excluded.qty)`,
                // The pair goes together: the visitor's when they chose one, else the account's.
                vehicleBaseVehicleId: sql`case when excluded.vehicle_base_vehicle_id is null
                  then ${cartItems.vehicleBaseVehicleId} else excluded.vehicle_base_vehicle_id end`,
                vehicleEngineId: sql`case when excluded.vehicle_base_vehicle_id is null
                  then ${cartItems.vehicleEngineId} else excluded.vehicle_engine_id end`,
              },
            });
        });
      }
      return get(userId, market);
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;

/** Emptying the account's cart, in a statement that writes more (the checkout's order). */
export function clearCartSql(userId: string): SQL {
  return sql`delete from cart_items where user_id = ${userId}`;
}

/** One line per product: a product listed twice keeps its last quantity (and vehicle). */
function dedupe(items: CartItemInput[]): CartItemInput[] {
  return [...new Map(items.map((i) => [i.productId, i])).values()];
}

/**
 * A visitor's lines with their vehicles checked and named, in one statement (none when no line
 * has a vehicle): a vehicle the catalog does not know is left off its line, not refused (the
 * browser may hold one the catalog has since dropped; the line is still wanted).
 */
async function withVehicles(tx: DbOrTx, items: CartItemInput[]): Promise<StoredLine[]> {
  const asked = items.flatMap((i) => (i.vehicle ? [i.vehicle] : []));
  if (asked.length === 0) return items.map(({ vehicle: _v, ...line }) => line);
  const key = (v: VehicleQuery) => JSON.stringify([v.year, v.make, v.model, v.engine ?? null]);
  const distinct = [...new Map(asked.map((v) => [key(v), v])).values()];
  const result = await tx.execute<{ named: (LineVehicle | null)[] }>(
    sql`select json_build_array(${sql.join(distinct.map(lineVehicleJson), sql`, `)}) as named`,
  );
  const named = new Map(distinct.map((v, i) => [key(v), result.rows[0]!.named[i] ?? null]));
  return items.map(({ vehicle, ...line }) => ({
    ...line,
    vehicle: vehicle ? named.get(key(vehicle))! : null,
  }));
}

/** The products among `ids` the account has in an unpaid order (the duplicate rule). */
async function unpaidProductsOf(tx: DbOrTx, userId: string, ids: string[]) {
  const rows = await tx
    .selectDistinct({ productId: orderItems.productId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orders.userId, userId),
        inArray(orders.status, holdingStatuses),
        inArray(orderItems.productId, ids),
      ),
    );
  return new Set(rows.flatMap((r) => (r.productId ? [r.productId] : [])));
}
