import { randomUUID } from "node:crypto";
import {
  holdMessages,
  type Order,
  type OrderCreate,
  type OrderTotalInput,
} from "../../contract/orders";
import type { ApprovalMail } from "../approvals/mail";
import { requestApproval } from "../approvals/service";
import { approvalWindowDays } from "../approvals/settings";
import { clearCartSql } from "../cart/service";
import type { OrderRules, OrderRulesSource } from "../orders/limits";
import { ACCOUNT_GONE_MESSAGE, HttpError, notFound } from "../errors";
import { orderEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";
import { isLockWaitOver, isStockOrCheckChanged, type Inventory } from "../inventory/service";
import { unitsToCents } from "../money";
import type { OrderNotifier } from "../orders/notifier";
import { toOrder } from "../orders/service";
import {
  accountTermsOf,
  checkCredit,
  settleOnAccount,
  type AccountInvoiceIssuer,
} from "../terms/account";
import type { TermsMail } from "../terms/mail";
import { saveDeliveryToProfile } from "../users/service";
import { lockQuoteForAcceptance, markQuoteAccepted } from "../quotes/access";
import { decidePlacement, refuseDeletedParts, refuseShortStock, type WantedLine } from "./decide";
import { approvalWindowEnd, holdTime } from "../inventory/holds";
import { formatAddress } from "../../contract/addresses";
import { unknownLineVehicle } from "../vehicles/service";
import type { DbOrTx } from "../db/database";
import type { ProductGate } from "./product-gate";
import {
  lockAndCount,
  readGatedProducts,
  readPlacement,
  readPlacementUnlocked,
  readStockIfUnchanged,
  type PlacementRead,
} from "./read";
import type { DestinationSource } from "../charges/read";
import type { PlacementMemory } from "./memory";
import { newOrderRows } from "../orders/placement";
import { oneAtATime } from "./one-at-a-time";
import {
  cartCheckoutRequest,
  destinationOf,
  promiseForWrite,
  promisesDelivery,
  quotedPrices,
  quoteSource,
  remembered,
  requireDestination,
  snapshot,
  stillWaiting,
  type PlacementRequest,
  type QuoteToAccept,
} from "./request";
import {
  holdUntil,
  writeOrder,
  writeOrderAtOnce,
  type Customer,
  type DecidedOn,
  type Delivery,
  type OrderToWrite,
} from "./write";

export { CLIENT_GONE_MESSAGE } from "./request";
import { totalNow } from "./total-now";
import { quoteDoors } from "./quote-doors";
import { refuseOtherMarket, type QuoteMarkets } from "./quote-market";
import { recordDeliveryPromise } from "../shipping/delivery-promise";
import { clearCartCode, placementDiscount, redeemCode } from "../pricing/discount-codes";
import type { DiscountOffer } from "../pricing/discounts";
import { inMarketOf, type PricingMarket } from "../pricing/pricing";
import { toStoreMinor } from "../pricing/convert";

export interface CheckoutOptions {
  currency: string;
  /** The store's country (STORE_COUNTRY): EU reverse charge is for other member states. */
  sellerCountry?: string;
  /** The order limits in force (`orders/limits.ts`), read once per placement. */
  rules: OrderRulesSource;
  /**
   * How long an order over a spending limit keeps its stock while it awaits an owner, in business
   * days, until an admin saves the approval settings (APPROVAL_WINDOW_BUSINESS_DAYS); the saved
   * window is read for such an order only. Without it, as long as any order's hold.
   */
  approvalWindowBusinessDays?: number;
  /** The order emails, queued in the transaction of the order (the outbox). */
  notify?: OrderNotifier;
  /** The emails of an order over a spending limit: to the company's owners and the buyer. */
  approvalMail?: ApprovalMail;
  /** Issues the invoice of an order placed on account (a company on net terms). */
  invoices?: AccountInvoiceIssuer;
  /** The email of an order placed on account (its invoice attached). */
  accountMail?: TermsMail;
  /**
   * The per-product queue in front of the pool (`product-gate.ts`), and the database a cart's
   * or a quote's products are read from before it: without it, placements go straight to the
   * pool.
   */
  gate?: { products: ProductGate; db: DbOrTx };
  /**
   * What this process remembers of its placements (`memory.ts`): an order of given lines is
   * decided from it without a read when it can be. Without it, every placement reads.
   */
  memory?: PlacementMemory;
  /**
   * The markets (the market cache) and whether buyers choose one: a quote is delivered within
   * its own market (`quote-doors.ts`). Without it, no quote's destination is checked.
   */
  markets?: QuoteMarkets;
}

/**
 * Placing an order, as one workflow for the spec's single product and for a whole cart:
 * lock the customer → read (one statement) → decide (pure functions, `decide.ts`) → write (one
 * statement, `write.ts`) → take the stock (the inventory, re-checking it in SQL) → queue the
 * email. All in one transaction: all or nothing.
 */
export function createCheckout(inventory: Inventory, opts: CheckoutOptions) {
  /**
   * A customer's placements in this process go one after another, each decided on what the one
   * before wrote: at once, all but the first found the customer changed and were placed again
   * under the lock, which queues them anyway (a third of all under overload: issue 49, finding 10).
   */
  const customerTurn = oneAtATime();

  /** Waits for the customer's placement before it here, then places at the products' gates. */
  function place(customer: Customer, request: PlacementRequest): Promise<Order> {
    return customerTurn(customer.id, async () => {
      stillWaiting(request);
      return placeGated(customer, { ...request, rules: await opts.rules.get() });
    });
  }

  /** At most a few placements of one product hold a connection at once (docs/hot-row.md). */
  async function placeGated(customer: Customer, request: Placing): Promise<Order> {
    const { gate } = opts;
    if (!gate) return placeNow(customer, request);
    const { source, quoteId } = request;
    const productIds = quoteId
      ? await readGatedProducts(gate.db, { quoteId })
      : "lines" in source
        ? source.lines.map((l) => l.productId)
        : await readGatedProducts(gate.db, source);
    return gate.products.run(productIds, () => {
      stillWaiting(request);
      return placeNow(customer, request);
    });
  }

  /**
   * Decides from memory and writes in one statement when it can (`placeFromMemory`), else reads
   * and writes in two, without a transaction (`placeUnlocked`); a quote, a company's order, a
   * capped new customer, a checkout that saves the address, and a placement whose customer
   * or stock changed under it are placed in the locked transaction (the customer's placements at
   * the same moment would only collide again if they read again: the lock puts them in a queue).
   */
  async function placeNow(customer: Customer, request: Placing): Promise<Order> {
    // An unverified account is a new customer more often than not (`Customer.emailVerified`).
    const likelyCapped = customer.emailVerified === false && capsNew(request.rules);
    if (
      !request.quoteId &&
      !request.fromCart?.saveToProfile &&
      !likelyCapped &&
      !request.fulfilment &&
      !request.discountCode
    ) {
      const placed =
        (await placeFromMemory(customer, request)) ?? (await placeUnlocked(customer, request));
      if (placed) return placed;
    }
    return placeLocked(customer, request);
  }

  /**
   * An order of given lines to the customer's default address, decided from what this process
   * remembers (`memory.ts`) and written in one statement that checks it all still holds. Null:
   * not remembered, or the memory would refuse it, or the write found something changed: the
   * unlocked read decides it afresh (and says why when it is refused).
   */
  async function placeFromMemory(customer: Customer, request: Placing): Promise<Order | null> {
    const { memory } = opts;
    const { source } = request;
    if (!memory || !remembered(request) || !("lines" in source)) return null;
    const known = memory.recall(customer.id, source.lines);
    if (!known || known.placedThisMinute >= request.rules.limits.perMinute) return null;
    let order: OrderToWrite;
    try {
      order = decideOrder(customer, request, known.placement, null);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      await confirmRefusal(customer, request, known);
      return null;
    }
    return writeDecided(customer, request, order, known.decidedOn);
  }

  /**
   * A refusal decided from memory is told only once it is confirmed: the customer and the facts
   * unchanged, decided again on the stock as it is now (one small statement), the value held left
   * out (the memory's may be more than what is held: an order paid since), and no part already
   * in an unpaid order by the memory (it may have been paid since: that rule comes first). A
   * sold-out part is refused this way without the whole read. Returns when it cannot confirm
   * the refusal: the read decides.
   */
  async function confirmRefusal(
    customer: Customer,
    request: Placing,
    known: NonNullable<ReturnType<PlacementMemory["recall"]>>,
  ): Promise<void> {
    const { placement, decidedOn } = known;
    if (placement.standing.unpaidProductIds.length > 0) return;
    const ids = [...placement.products.keys()];
    const stock = await readStockIfUnchanged(
      inventory.db,
      customer.id,
      ids,
      decidedOn,
      customer.stillSignedIn,
    );
    if (!stock || stock.size !== ids.length) return;
    opts.memory!.stock(stock);
    const products = new Map(
      [...placement.products].map(([id, p]) => [id, { ...p, available: stock.get(id)! }]),
    );
    // Throws the refusal a read would make; placed on the stock as it is, the read places it.
    decideOrder(
      customer,
      request,
      { ...placement, products, standing: { ...placement.standing, heldCents: 0 } },
      null,
    );
  }

  /**
   * The order path's two statements (docs/decisions/011-checkout-workflow.md, "Placed in two
   * statements"): everything read in one, without the customer's lock; decided; then written in
   * one that goes ahead only while the customer's revision is what was read (nothing of theirs
   * changed meanwhile) and every line still fits the stock. Null: the locked transaction must
   * place it (it needs more than the order, or something changed).
   */
  async function placeUnlocked(customer: Customer, request: Placing): Promise<Order | null> {
    const read = await readPlacementUnlocked(inventory.db, customer.id, request.source, {
      destination: request.destination,
      currency: opts.currency,
      vehicle: request.vehicle,
      sellerCountry: opts.sellerCountry,
      perMinute: request.rules.limits.perMinute,
      stillSignedIn: customer.stillSignedIn,
      wholeStanding: !!opts.memory && remembered(request),
    });
    if (!read) throw notFound(ACCOUNT_GONE_MESSAGE);
    if (!read.rate.allowed) throw new HttpError(429, "rate_limited", holdMessages.rate);
    const facts = read.placement;
    // What only the locked transaction does: the cap of new customers locks the products before
    // it reads them; a company's order may go on account or wait for an approval.
    if (!facts.standing.trusted && capsNew(request.rules)) return null;
    if (facts.pricing.companyId) return null;
    opts.memory?.learn(customer.id, read);
    const order = decideOrder(customer, request, facts, null);
    return writeDecided(customer, request, order, read.decidedOn);
  }

  /**
   * The write of an order decided without the lock: one statement, which goes ahead only while
   * what it was decided on still holds. Null: something changed (the caller reads again).
   */
  async function writeDecided(
    customer: Customer,
    request: Placing,
    order: OrderToWrite,
    decidedOn: DecidedOn,
  ): Promise<Order | null> {
    // A company's order (one awaiting approval) is placed under the lock: its window is read there.
    // So is a retail line below its part's trade minimum (the one-statement take checks that).
    if (order.approval || order.belowTradeMinimum) return null;
    // The email names the order's id and hold, both known before the write.
    const draft = newOrderRows(customer, order, new Date());
    // A cart's checkout that promises a delivery window: worked out from where the parts would be
    // allocated now, kept only if the statement allocates them there (units that would wait on
    // backorder: the locked transaction places it).
    const promise = await promiseForWrite(inventory.db, request, order, draft.row.createdAt);
    if (promise === null) return null;
    const mail = await opts.notify?.placedInsert(
      toOrder(draft.row, draft.items),
      customer.name,
      promise?.estimate.words,
    );
    stillWaiting(request, true);
    try {
      const { row, items, stock } = await writeOrderAtOnce(inventory, customer, order, {
        decidedOn,
        share: request.rules.limits,
        queued: mail?.insert,
        lockWaitMs: UNLOCKED_LOCK_WAIT_MS,
        promise,
      });
      mail?.queued();
      opts.memory?.placed(customer.id, decidedOn, order, stock);
      return toOrder(row, items);
    } catch (err) {
      // The customer or the stock changed since the read: the locked transaction reads them
      // again under the lock (and says why a line no longer fits). A row held for longer (a
      // stuck transaction, an admin's edit): it waits for it, and asks whether the client still
      // waits before it commits.
      if (isStockOrCheckChanged(err) || isLockWaitOver(err)) return null;
      throw err;
    }
  }

  /**
   * The placement as one transaction holding the customer's lock: lock → read → decide → write
   * → what a company's order or a quote also needs → the email queued.
   */
  async function placeLocked(customer: Customer, request: Placing): Promise<Order> {
    return inventory.transaction(async (stock, tx) => {
      // One statement: the customer's row locked (their placements and cart changes queue up
      // behind each other from here), then the placement counted against the per-minute limit
      // (in the transaction: a placement refused for any reason is not counted).
      const { trusted, rate } = await lockAndCount(
        tx,
        customer.id,
        request.rules.limits.perMinute,
        customer.stillSignedIn,
      );
      if (!rate.allowed) throw new HttpError(429, "rate_limited", holdMessages.rate);
      // A quote: its row is locked and checked (who, status, expiry); its lines are the order's.
      const quote = request.quoteId
        ? await lockQuoteForAcceptance(tx, request.quoteId, customer.id)
        : null;
      const source = quote ? quoteSource(quote) : request.source;
      // A quote prices in its own market, as kept with it (docs/quotes.md "In the buyer's market").
      const placing = quote ? { ...request, market: quote.market } : request;
      const facts = await readPlacement(tx, customer.id, source, {
        trusted,
        capNew: capsNew(request.rules),
        destination: request.destination,
        currency: opts.currency,
        market: placing.market,
        vehicle: request.vehicle,
        sellerCountry: opts.sellerCountry,
        backorders: !!request.fulfilment,
      });
      if (quote) await refuseOtherMarket(opts.markets, quote, facts.charges);
      // The code the buyer saw, read here: it is used once, in this transaction.
      const discount = request.discountCode
        ? await placementDiscount(tx, request.discountCode, customer.id, facts)
        : undefined;
      const order = await withApprovalWindow(
        tx,
        decideOrder(customer, placing, facts, quote, discount),
      );
      const { companyId } = facts.pricing;
      // A company on net terms: no card; its credit is checked now (an order awaiting approval
      // is checked when it is approved: docs/terms.md).
      const account =
        companyId && !order.approval && opts.invoices ? await accountTermsOf(tx, companyId) : null;
      // The credit limit is in the store's currency: an order in a market counts at its rate.
      const storeCents = toStoreMinor(order.totalCents, order.exchangeRate ?? 1);
      if (account) await checkCredit(tx, account, storeCents, order);
      // One statement: the order, its lines, its hold windows, its stock, and (a checkout) the
      // cart emptied.
      const { row, items } = await writeOrder(tx, stock, customer, order);
      let placed = toOrder(row, items);
      const delivery = promisesDelivery(request, order)
        ? await recordDeliveryPromise(
            tx,
            { id: row.id, placedAt: row.createdAt, method: order.charges.shippingMethod ?? "" },
            order.charges.transit!,
          )
        : null;
      if (order.discount) await redeemCode(tx, order.discount, customer.id, row.id);
      if (request.fromCart && request.discountCode) await clearCartCode(tx, customer.id);
      await recordWebhookEvent(tx, { type: "order.placed", data: orderEventData(row) });
      if (request.quoteId) await markQuoteAccepted(tx, request.quoteId, row.id);
      if (account) {
        // Settled on account: paid with an invoice due on the company's terms, stock kept.
        const settled = await settleOnAccount(tx, row.id, account, opts.invoices!);
        placed = toOrder(settled.row, items);
        await opts.accountMail?.placed(tx, placed, customer.name, settled.invoice);
      } else if (order.approval && companyId) {
        // Over a spending limit: it waits for an owner (docs/approvals.md), who is emailed.
        await requestApproval(
          tx,
          placed,
          customer,
          { ...order.approval, companyId },
          opts.approvalMail,
        );
      } else {
        await opts.notify?.placed(tx, placed, customer.name, delivery?.words);
      }
      if (request.fromCart?.saveToProfile) {
        await saveDeliveryToProfile(tx, customer.id, order.delivery);
      }
      stillWaiting(request, true);
      return placed;
    });
  }

  /**
   * An order over a spending limit holds its stock for the approval window (docs/approvals.md):
   * the admin's saved window, read here, in the locked transaction, for such an order only, so an
   * ordinary order sends no statement more; or APPROVAL_WINDOW_BUSINESS_DAYS while none is saved.
   */
  async function withApprovalWindow(tx: DbOrTx, order: OrderToWrite): Promise<OrderToWrite> {
    if (!order.approval || !opts.approvalWindowBusinessDays) return order;
    const days = await approvalWindowDays(tx, opts.approvalWindowBusinessDays);
    return { ...order, holdExpiresAt: approvalWindowEnd(new Date(), days) };
  }

  /** The order the read facts make: the rules checked, priced and charged, its hold decided. */
  function decideOrder(
    customer: Customer,
    request: Placing,
    facts: PlacementRead,
    quote: QuoteToAccept | null,
    discount?: DiscountOffer,
  ): OrderToWrite {
    // A vehicle the catalog does not know (stale in the browser, or made up) orders nothing.
    if (request.vehicle && !facts.vehicle) throw unknownLineVehicle();
    if (request.fromCart || quote) refuseDeletedParts(facts.wanted, facts.products);
    if (quote) refuseShortStock(facts.wanted, facts.products);
    const { address } = facts;
    const delivery: Delivery =
      address && !("defaultAddress" in (request.destination ?? {}))
        ? {
            ...request.delivery,
            address: formatAddress(address),
            phone: address.phone,
            shipTo: snapshot(address),
          }
        : { ...request.delivery, shipTo: address ? snapshot(address) : null };
    // In the request's market (the locked read priced in it already; the unlocked one and the
    // memory keep the store's currency): parts, shipping and limits (decide.ts).
    const pricing = inMarketOf(facts.pricing, request.market);
    const decision = decidePlacement(facts, {
      shippingMethodId: request.shippingMethodId,
      limits: request.rules.limits,
      pricing,
      expectedTotalCents: request.expectedTotalCents,
      quotedPrices: quote ? quotedPrices(quote) : undefined,
      fulfilment: quote ? undefined : request.fulfilment,
      discount,
    });
    requireDestination(facts);
    return {
      ...decision,
      id: randomUUID(),
      delivery,
      currency: pricing.currency,
      exchangeRate: pricing.market?.rate,
      // An order awaiting approval is held for the approval window instead (withApprovalWindow).
      holdExpiresAt: holdUntil(
        facts.windowEnd,
        holdTime(facts.standing, request.rules.limits, request.rules.holdMs),
      ),
      // Each line keeps its cart line's vehicle; the request's fills the lines without one.
      vehicles: decision.lines.map(
        (l) =>
          facts.wanted.find((w) => w.productId === l.productId)?.vehicle ?? facts.vehicle ?? null,
      ),
      also: request.fromCart ? clearCartSql(customer.id) : undefined,
    };
  }

  return {
    ...quoteDoors(place, inventory, opts),

    /**
     * What the spec's one-product order would charge now (the product page's dialog shows it
     * before the customer confirms), decided as the placement decides it, writing nothing.
     */
    orderTotal: (customer: Customer, input: OrderTotalInput, market?: PricingMarket) =>
      inventory.transaction((_stock, tx) =>
        totalNow(
          tx,
          customer,
          {
            source: { lines: [{ productId: input.productId, qty: input.orderQty }] },
            destination: destinationOf(input),
            shippingMethodId: null,
            quote: null,
            discountCode: input.discountCode,
            market,
          },
          opts,
        ),
      ),

    /** The spec's order of one product (`/products/{id}`): a one-line order. */
    placeOne: (
      customer: Customer,
      input: OrderCreate,
      clientWaiting?: () => boolean,
      market?: PricingMarket,
    ) =>
      place(customer, {
        market,
        source: { lines: [{ productId: input.productId, qty: input.orderQty }] },
        delivery: { phone: input.phonrNo, address: input.Address },
        destination: destinationOf(input),
        expectedTotalCents:
          input.expectedTotal === undefined ? undefined : unitsToCents(input.expectedTotal),
        vehicle: input.vehicle,
        // A code is placed in the locked transaction and used once there, as at checkout.
        discountCode: input.discountCode || undefined,
        clientWaiting,
      }),

    /** An order of the given lines, all or none (to `destination`; else the default address). */
    placeLines: (
      customer: Customer,
      lines: WantedLine[],
      delivery: Delivery,
      clientWaiting?: () => boolean,
      destination: DestinationSource = { defaultAddress: true },
    ) =>
      place(customer, {
        source: { lines },
        delivery,
        destination,
        clientWaiting,
      }),

    /**
     * Turns the account's whole cart into one order (all lines or none), at the total the
     * customer was shown; the cart is emptied in the same transaction, so two tabs checking out
     * at once place one order (the second finds the cart empty).
     */
    checkoutCart: (...args: Parameters<typeof cartCheckoutRequest>) =>
      place(args[0], cartCheckoutRequest(...args)),
  };
}

export type CheckoutService = ReturnType<typeof createCheckout>;

/** A placement with the order limits in force when it started. */
type Placing = PlacementRequest & { rules: OrderRules };

/** What new customers hold together is capped (their placements lock the products). */
const capsNew = (rules: OrderRules) => rules.limits.newCustomerShare < 1;

/**
 * How long the unlocked write waits for a locked row (a product another placement is taking, the
 * customer's row under a cart change) before it leaves the placement to the locked transaction:
 * long enough for the placements that hold a row for a millisecond, short enough that a client
 * who gives up during a long wait does not get an order committed after it.
 */
const UNLOCKED_LOCK_WAIT_MS = 100;
