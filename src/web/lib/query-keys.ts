import type { ApprovalListQuery } from "#contract/approvals";
import type { ProductListQuery } from "#contract/products";

/** Query keys, one factory per resource, so invalidation can target a whole resource. */
export const queryKeys = {
  siteConfig: ["site-config"] as const,
  /** The admin's home, "Today": read afresh each visit. */
  adminHome: ["admin-home"] as const,
  lowStockEmail: ["low-stock-email"] as const,
  session: ["session"] as const,
  profile: ["profile"] as const,
  products: {
    all: ["products"] as const,
    list: (query: Partial<ProductListQuery>) => ["products", "list", query] as const,
    detail: (id: string) => ["products", "detail", id] as const,
  },
  users: {
    all: ["users"] as const,
    list: (query: object) => ["users", "list", query] as const,
  },
  orders: {
    all: ["orders"] as const,
    admin: (query: object) => ["orders", "admin", query] as const,
    overview: ["orders", "overview"] as const,
    holds: ["orders", "holds"] as const,
    limits: ["orders", "limits"] as const,
    mine: ["orders", "mine"] as const,
    detail: (id: string) => ["orders", "detail", id] as const,
    total: (input: object) => ["orders", "total", input] as const,
    adminDetail: (id: string) => ["orders", "admin-detail", id] as const,
    invoice: (id: string) => ["orders", "invoice", id] as const,
  },
  cart: {
    all: ["cart"] as const,
    mine: ["cart", "mine"] as const,
    visitor: (items: object) => ["cart", "visitor", items] as const,
    quote: (input: object) => ["cart", "quote", input] as const,
  },
  addresses: ["addresses"] as const,
  shippingZones: ["shipping-zones"] as const,
  /** Stock locations, a product's stock at each and the transfers (admin). */
  locations: {
    all: ["locations"] as const,
    list: ["locations", "list"] as const,
    stock: (productId: string) => ["locations", "stock", productId] as const,
    transfers: (productId: string) => ["locations", "transfers", productId] as const,
  },
  /** Incoming supply, production runs and purchase orders (admin). */
  supply: {
    all: ["supply"] as const,
    list: (query: object) => ["supply", "list", query] as const,
    /** The backorder queue (supply fills it). */
    backorders: (query: object) => ["supply", "backorders", query] as const,
  },
  taxRates: ["tax-rates"] as const,
  lists: {
    all: ["lists"] as const,
    detail: (id: string) => ["lists", "detail", id] as const,
  },
  // Under "orders": deciding one changes an order.
  approvals: {
    all: ["orders", "approvals"] as const,
    list: (query: ApprovalListQuery) => ["orders", "approvals", query] as const,
    // Not under "orders": an order changing leaves them as they are.
    settings: ["approval-settings"] as const,
  },
  paymentIntent: (orderId: string) => ["payment-intent", orderId] as const,
  // Under "orders": what changes an order (a late payment) may add one.
  refundsDue: ["orders", "refunds-due"] as const,
  // Under "orders": cancelling an order again retries its refund.
  refundsToRetry: ["orders", "refunds-to-retry"] as const,
  reviews: {
    all: ["reviews"] as const,
    list: (page: { limit: number; offset: number }) => ["reviews", "list", page] as const,
    /** An admin's queue: the hidden reviews, or the ones awaiting approval. */
    queue: (which: "hidden" | "pending", page: { limit: number; offset: number }) =>
      ["reviews", which, page] as const,
  },
};
