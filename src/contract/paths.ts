/**
 * Every page path of the app, in one place (SPEC section 2): the web router matches these, links
 * are built from them, and the server uses them to tell a page from a 404 and to list the public
 * pages in /sitemap.xml. A page with a parameter has its pattern and its link builder together.
 */
const withId = (pattern: `${string}:id`) => ({
  pattern,
  to: (id: string) => pattern.replace(":id", encodeURIComponent(id)),
});

const withSlug = (pattern: `${string}:slug`) => ({
  pattern,
  to: (slug: string) => pattern.replace(":slug", encodeURIComponent(slug)),
});

export const paths = {
  home: "/",
  homeAlias: "/home",
  allProducts: "/allproducts",
  product: withId("/products/:id"),
  /** A part's public page, for everyone and search engines (docs/catalog.md "Part pages"). */
  part: withSlug("/parts/:slug"),
  login: "/login",
  signup: "/signup",
  forgotPassword: "/forgot-password",
  /** Where the emailed reset link leads (`?token=`). */
  resetPassword: "/reset-password",
  /** Where the emailed verification link lands after Better Auth checked it (`?error=` if not). */
  emailVerified: "/email-verified",
  cart: "/cart",
  checkout: "/checkout",
  blogs: "/blogs",
  review: "/review",
  portfolio: "/myprotfolio",
  dashboard: "/dashboard",
  addReview: "/dashboard/reviews",
  myItems: "/dashboard/myitems",
  payment: withId("/dashboard/payment/:id"),
  /** One order: the customer's confirmation, the admin's full view. */
  order: withId("/dashboard/orders/:id"),
  allUsers: "/dashboard/allusers",
  addProduct: "/dashboard/addProduct",
  manageProducts: "/dashboard/manageallproducts",
  /** Admin: the vehicle database (makes, models, years, engines; docs/vehicles.md). */
  vehicles: "/dashboard/vehicles",
  /** Admin: each category's attributes (docs/attributes.md). */
  attributes: "/dashboard/attributes",
  /** Admin: API keys for other systems (docs/api-keys.md). */
  apiKeys: "/dashboard/api-keys",
  /** Admin: outgoing webhooks, their endpoints and delivery log (docs/webhooks.md). */
  webhooks: "/dashboard/webhooks",
  manageOrders: "/dashboard/manageallorders",
  auditLog: "/dashboard/audit",
  invoices: "/dashboard/invoices",
  /** Admin: return requests (docs/returns.md) and the "did not fit" report. */
  returns: "/dashboard/returns",
  /** Warranty claims (docs/warranty.md): the admin's queue, a customer's and their company's. */
  warranty: "/dashboard/warranty",
  shippingZones: "/dashboard/shipping",
  /** Admin: stock locations (docs/inventory.md), and a product's stock at each. */
  locations: "/dashboard/locations",
  locationStock: withId("/dashboard/locations/stock/:id"),
  /** Admin: incoming supply, production runs and purchase orders (docs/inventory.md). */
  incomingSupply: "/dashboard/incoming-supply",
  /** Admin: the backorder queue, every line waiting for supply with its date (docs/inventory.md). */
  backorders: "/dashboard/backorders",
  taxRates: "/dashboard/tax",
  /** Trade (admin): companies, their members and invitations; price lists and their entries. */
  companies: "/dashboard/companies",
  company: withId("/dashboard/companies/:id"),
  priceLists: "/dashboard/price-lists",
  priceList: withId("/dashboard/price-lists/:id"),
  /** Admin: customer groups and their price rules (docs/pricing.md). */
  customerGroups: "/dashboard/customer-groups",
  discountCodes: "/dashboard/discount-codes",
  /** Admin: markets, their currencies, exchange rates and rounding (docs/pricing.md). */
  markets: "/dashboard/markets",
  /** Admin: catalog data imports, ACES fitment files (docs/imports.md). */
  imports: "/dashboard/imports",
  /** A company member's own company (owners manage its members there). */
  myCompany: "/dashboard/company",
  /** Where the emailed company invitation leads (`?token=`). */
  companyInvitation: "/company-invitation",
  /** Quick order by part number (docs/quick-order.md). */
  quickOrder: "/quick-order",
  myLists: "/dashboard/lists",
  /** A company owner's orders awaiting approval (`?order=` marks the emailed one). */
  approvals: "/dashboard/approvals",
  list: withId("/dashboard/lists/:id"),
  /** Requests for quote (docs/quotes.md): a customer's company's, or every one for admins. */
  quotes: "/dashboard/quotes",
  quote: withId("/dashboard/quotes/:id"),
  /** The store's address, returns address, phone and hours (docs/returns.md). */
  contact: "/contact",
} as const;

/** The public pages worth a search engine's visit (listed in /sitemap.xml). */
export const indexablePages: readonly string[] = [
  paths.home,
  paths.allProducts,
  paths.blogs,
  paths.review,
  paths.portfolio,
];

/** The address search engines should index a page under: the landing page is also at /home. */
export const canonicalPath = (path: string) => (path === paths.homeAlias ? paths.home : path);

/**
 * A part's address on the store (`/parts/<slug>`): its part number and name in lower-case letters
 * and digits joined by hyphens, e.g. "pw-bk-3001-ceramic-brake-pads". The database keeps the same
 * in a generated column (`products.slug`, migration 0054): a test holds the two equal.
 */
export const partSlug = (partNumber: string, name: string) =>
  `${partNumber}-${name}`
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();

/** Written by the build where a pre-rendered page needs the store's address; the server fills it in. */
export const PUBLIC_URL_PLACEHOLDER = "__PUBLIC_URL__";

/**
 * Around a pre-rendered page's HTML inside `<div id="root">` (scripts/prerender-pages.ts): where
 * the server puts All products rendered with its products instead (src/server/web-app.ts).
 */
export const PAGE_START = "<!--page-->";
export const PAGE_END = "<!--/page-->";

/**
 * Pages that are not pre-rendered (they need the signed-in user) still arrive with their layout:
 * the build renders a shell of placeholders for each family (`shells/<name>.html`, from the URL
 * given here) and the server answers the family's paths with it.
 */
export const pageShells = {
  product: paths.product.pattern,
  part: paths.part.pattern,
  dashboard: paths.dashboard,
} as const;
export type PageShell = keyof typeof pageShells;

/** The shell a page path is answered with, if it has one. */
export function pageShellOf(pathname: string): PageShell | undefined {
  const path = pathname.toLowerCase().replace(/\/+$/, "");
  if (/^\/products\/[^/]+$/.test(path)) return "product";
  if (/^\/parts\/[^/]+$/.test(path)) return "part";
  if (path === paths.dashboard || path.startsWith(`${paths.dashboard}/`)) return "dashboard";
  return undefined;
}

/** Whether `pathname` is a page of the app (any other path is answered 404). */
export function isPagePath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const parts = path.split("/");
  const patterns = Object.values(paths).map((p) => (typeof p === "string" ? p : p.pattern));
  return patterns.some((pattern) => {
    const want = pattern.split("/");
    return (
      want.length === parts.length &&
      want.every((w, i) =>
        w.startsWith(":") ? parts[i] !== "" : w.toLowerCase() === parts[i]?.toLowerCase(),
      )
    );
  });
}
