import { matchRoutes, type Location, type RouteObject } from "react-router";
import {
  NEWEST_PRODUCTS_QUERY,
  productBrowserState,
  productsQueryOptions,
} from "../features/catalog/api/get-products";
import { reviewSummaryQueryOptions } from "../features/reviews/api/get-review-summary";
import {
  LANDING_REVIEWS_PAGE_SIZE,
  reviewsQueryOptions,
} from "../features/reviews/api/get-reviews";
import { paths } from "#contract/paths";
import { lazyRoute, type LazyRoute } from "./lazy-route";
import { queryClient } from "./query-client";
import { RootLayout } from "./root-layout";

type Where = Pick<Location, "pathname" | "search">;

interface RouteHandle {
  route: LazyRoute;
  /** Asks for the page's data while its code loads, rather than once it has rendered. */
  prefetch?: (where: Where) => Promise<unknown>;
}

const page = (path: string | undefined, route: LazyRoute, prefetch?: RouteHandle["prefetch"]) =>
  ({
    ...(path === undefined ? { index: true } : { path }),
    element: <route.Component />,
    handle: { route, prefetch } satisfies RouteHandle,
  }) as RouteObject;

const layout = (route: LazyRoute, children: RouteObject[], path?: string): RouteObject => ({
  path,
  element: <route.Component />,
  handle: { route } satisfies RouteHandle,
  children,
});

// Each route module's code loads on first visit (lazy-route.tsx).
const pages = {
  home: lazyRoute(() => import("./routes/home"), "HomeRoute"),
  allProducts: lazyRoute(() => import("./routes/all-products"), "AllProductsRoute"),
  blogs: lazyRoute(() => import("./routes/blogs"), "BlogsRoute"),
  review: lazyRoute(() => import("./routes/review"), "ReviewRoute"),
  portfolio: lazyRoute(() => import("./routes/portfolio"), "PortfolioRoute"),
  contact: lazyRoute(() => import("./routes/contact"), "ContactRoute"),
  login: lazyRoute(() => import("./routes/login"), "LoginRoute"),
  signup: lazyRoute(() => import("./routes/signup"), "SignupRoute"),
  forgotPassword: lazyRoute(() => import("./routes/forgot-password"), "ForgotPasswordRoute"),
  resetPassword: lazyRoute(() => import("./routes/reset-password"), "ResetPasswordRoute"),
  emailVerified: lazyRoute(() => import("./routes/email-verified"), "EmailVerifiedRoute"),
  product: lazyRoute(() => import("./routes/product"), "ProductRoute"),
  part: lazyRoute(() => import("./routes/part"), "PartRoute"),
  cart: lazyRoute(() => import("./routes/cart"), "CartRoute"),
  checkout: lazyRoute(() => import("./routes/checkout"), "CheckoutRoute"),
  order: lazyRoute(() => import("./routes/order"), "OrderRoute"),
  dashboard: lazyRoute(() => import("./routes/dashboard-layout"), "DashboardLayout"),
  profile: lazyRoute(() => import("./routes/profile"), "ProfileRoute"),
  addReview: lazyRoute(() => import("./routes/add-review"), "AddReviewRoute"),
  myItems: lazyRoute(() => import("./routes/my-items"), "MyItemsRoute"),
  payment: lazyRoute(() => import("./routes/payment"), "PaymentRoute"),
  allUsers: lazyRoute(() => import("./routes/all-users"), "AllUsersRoute"),
  addProduct: lazyRoute(() => import("./routes/add-product"), "AddProductRoute"),
  manageProducts: lazyRoute(() => import("./routes/manage-products"), "ManageProductsRoute"),
  manageOrders: lazyRoute(() => import("./routes/manage-orders"), "ManageOrdersRoute"),
  vehicles: lazyRoute(() => import("./routes/vehicles"), "VehiclesRoute"),
  attributes: lazyRoute(() => import("./routes/attributes"), "AttributesRoute"),
  apiKeys: lazyRoute(() => import("./routes/api-keys"), "ApiKeysRoute"),
  webhooks: lazyRoute(() => import("./routes/webhooks"), "WebhooksRoute"),
  notFound: lazyRoute(() => import("./routes/not-found"), "NotFoundRoute"),
  auditLog: lazyRoute(() => import("./routes/audit-log"), "AuditLogRoute"),
  invoices: lazyRoute(() => import("./routes/invoices"), "InvoicesRoute"),
  returns: lazyRoute(() => import("./routes/returns"), "ReturnsRoute"),
  warranty: lazyRoute(() => import("./routes/warranty"), "WarrantyRoute"),
  shippingZones: lazyRoute(() => import("./routes/shipping-zones"), "ShippingZonesRoute"),
  locations: lazyRoute(() => import("./routes/locations"), "LocationsRoute"),
  locationStock: lazyRoute(() => import("./routes/location-stock"), "LocationStockRoute"),
  incomingSupply: lazyRoute(() => import("./routes/incoming-supply"), "IncomingSupplyRoute"),
  backorders: lazyRoute(() => import("./routes/backorders"), "BackordersRoute"),
  taxRates: lazyRoute(() => import("./routes/tax-rates"), "TaxRatesRoute"),
  companies: lazyRoute(() => import("./routes/companies"), "CompaniesRoute"),
  myCompany: lazyRoute(() => import("./routes/my-company"), "MyCompanyRoute"),
  company: lazyRoute(() => import("./routes/company"), "CompanyRoute"),
  priceLists: lazyRoute(() => import("./routes/price-lists"), "PriceListsRoute"),
  priceList: lazyRoute(() => import("./routes/price-list"), "PriceListRoute"),
  customerGroups: lazyRoute(() => import("./routes/customer-groups"), "CustomerGroupsRoute"),
  discountCodes: lazyRoute(() => import("./routes/discount-codes"), "DiscountCodesRoute"),
  markets: lazyRoute(() => import("./routes/markets"), "MarketsRoute"),
  imports: lazyRoute(() => import("./routes/imports"), "ImportsRoute"),
  companyInvitation: lazyRoute(
    () => import("./routes/company-invitation"),
    "CompanyInvitationRoute",
  ),
  quickOrder: lazyRoute(() => import("./routes/quick-order"), "QuickOrderRoute"),
  myLists: lazyRoute(() => import("./routes/my-lists"), "MyListsRoute"),
  list: lazyRoute(() => import("./routes/list"), "ListRoute"),
  approvals: lazyRoute(() => import("./routes/approvals"), "ApprovalsRoute"),
  quotes: lazyRoute(() => import("./routes/quotes"), "QuotesRoute"),
  quote: lazyRoute(() => import("./routes/quote"), "QuoteRoute"),
};

const guards = {
  signedIn: lazyRoute(() => import("./guards"), "RequireAuth"),
  customer: lazyRoute(() => import("./guards"), "RequireCustomer"),
  admin: lazyRoute(() => import("./guards"), "RequireAdmin"),
};

const prefetchHomeData = () =>
  Promise.all([
    queryClient.prefetchQuery(productsQueryOptions(NEWEST_PRODUCTS_QUERY)),
    queryClient.prefetchQuery(reviewSummaryQueryOptions()),
    queryClient.prefetchQuery(reviewsQueryOptions({ limit: LANDING_REVIEWS_PAGE_SIZE, offset: 0 })),
  ]);

const prefetchProductList = ({ search }: Where) =>
  queryClient.prefetchQuery(
    productsQueryOptions(productBrowserState(new URLSearchParams(search)).query),
  );

// Loaded with the part page's code, not the landing page's (the server's HTML preloads the data).
const prefetchPart = async ({ pathname }: Where) => {
  const { partQueryOptions } = await import("../features/catalog/api/get-part");
  const slug = decodeURIComponent(pathname.split("/")[2] ?? "");
  if (slug) await queryClient.prefetchQuery(partQueryOptions(slug));
};

// Every path comes from lib/paths.ts (SPEC section 2); children's paths are absolute.
export const routes: RouteObject[] = [
  {
    path: paths.home,
    element: <RootLayout />,
    children: [
      page(undefined, pages.home, prefetchHomeData),
      page(paths.homeAlias, pages.home, prefetchHomeData),
      page(paths.allProducts, pages.allProducts, prefetchProductList),
      page(paths.part.pattern, pages.part, prefetchPart),
      page(paths.blogs, pages.blogs),
      page(paths.review, pages.review),
      page(paths.portfolio, pages.portfolio),
      page(paths.contact, pages.contact),
      page(paths.login, pages.login),
      page(paths.signup, pages.signup),
      page(paths.forgotPassword, pages.forgotPassword),
      page(paths.resetPassword, pages.resetPassword),
      page(paths.emailVerified, pages.emailVerified),
      page(paths.cart, pages.cart),
      page(paths.companyInvitation, pages.companyInvitation),
      layout(guards.signedIn, [
        page(paths.product.pattern, pages.product),
        layout(guards.customer, [
          page(paths.checkout, pages.checkout),
          page(paths.quickOrder, pages.quickOrder),
        ]),
        layout(
          pages.dashboard,
          [
            page(undefined, pages.profile),
            layout(guards.customer, [
              page(paths.addReview, pages.addReview),
              page(paths.myItems, pages.myItems),
              page(paths.myCompany, pages.myCompany),
              page(paths.myLists, pages.myLists),
              page(paths.list.pattern, pages.list),
            ]),
            page(paths.payment.pattern, pages.payment),
            page(paths.order.pattern, pages.order),
            page(paths.approvals, pages.approvals),
            page(paths.quotes, pages.quotes),
            page(paths.quote.pattern, pages.quote),
            page(paths.warranty, pages.warranty),
            layout(guards.admin, [
              page(paths.allUsers, pages.allUsers),
              page(paths.addProduct, pages.addProduct),
              page(paths.manageProducts, pages.manageProducts),
              page(paths.vehicles, pages.vehicles),
              page(paths.attributes, pages.attributes),
              page(paths.apiKeys, pages.apiKeys),
              page(paths.webhooks, pages.webhooks),
              page(paths.manageOrders, pages.manageOrders),
              page(paths.auditLog, pages.auditLog),
              page(paths.invoices, pages.invoices),
              page(paths.returns, pages.returns),
              page(paths.shippingZones, pages.shippingZones),
              page(paths.locations, pages.locations),
              page(paths.locationStock.pattern, pages.locationStock),
              page(paths.incomingSupply, pages.incomingSupply),
              page(paths.backorders, pages.backorders),
              page(paths.taxRates, pages.taxRates),
              page(paths.companies, pages.companies),
              page(paths.company.pattern, pages.company),
              page(paths.priceLists, pages.priceLists),
              page(paths.priceList.pattern, pages.priceList),
              page(paths.customerGroups, pages.customerGroups),
              page(paths.discountCodes, pages.discountCodes),
              page(paths.markets, pages.markets),
              page(paths.imports, pages.imports),
            ]),
          ],
          paths.dashboard,
        ),
      ]),
      page("*", pages.notFound),
    ],
  },
];

/**
 * The handles of the routes `pathname` leads to. Remembered for the last few paths: matching
 * flattens and ranks the whole route table each time (tens of milliseconds on a phone), and the
 * same path is asked for by the first render, its preload, and every hover of a link to it.
 */
const matchedHandles = (pathname: string): RouteHandle[] => {
  let handles = recentMatches.get(pathname);
  if (!handles) {
    handles = (matchRoutes(routes, pathname) ?? []).flatMap((match) => {
      const handle = match.route.handle as RouteHandle | undefined;
      return handle ? [handle] : [];
    });
    if (recentMatches.size >= RECENT_MATCHES) {
      recentMatches.delete(recentMatches.keys().next().value!);
    }
  } else {
    recentMatches.delete(pathname); // moved to the newest end
  }
  recentMatches.set(pathname, handles);
  return handles;
};
const RECENT_MATCHES = 50;
const recentMatches = new Map<string, RouteHandle[]>();

/** Loads, in the background, the code of the pages, layouts and guards `pathname` leads to. */
export function prefetchRouteCode(pathname: string): void {
  for (const handle of matchedHandles(pathname)) handle.route.prefetch();
}

/** Loads the code of every page, layout and guard `pathname` leads to, all at once. */
export function loadRouteCode(pathname: string): Promise<unknown> {
  return Promise.all(matchedHandles(pathname).map((handle) => handle.route.preload()));
}

/**
 * Starts loading what `where` needs: the code of its page, layouts and guards, all at once
 * (rendering would discover them one inside the other), and the page's data. Idempotent: code
 * loads once, and fresh data is not fetched again. `code` resolves when the code is there, `data`
 * when the data has arrived (or failed: the page shows that itself).
 */
export function preloadRoute(where: Where): { code: Promise<unknown>; data: Promise<unknown> } {
  const handles = matchedHandles(where.pathname);
  const data = Promise.all(handles.map((handle) => handle.prefetch?.(where)));
  return { code: Promise.all(handles.map((handle) => handle.route.preload())), data };
}
