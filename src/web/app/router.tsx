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
import { lazyRoute, type LazyRoute } from "./lazy-route";
import { queryClient } from "./query-client";
import { RootLayout } from "./root-layout";

type Where = Pick<Location, "pathname" | "search">;

interface RouteHandle {
  route: LazyRoute;
  /** Asks for the page's data while its code loads, rather than once it has rendered. */
  prefetch?: (where: Where) => void;
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

const home = lazyRoute(async () => (await import("./routes/home")).HomeRoute);

function prefetchHomeData() {
  void queryClient.prefetchQuery(productsQueryOptions(NEWEST_PRODUCTS_QUERY));
  void queryClient.prefetchQuery(reviewSummaryQueryOptions());
  void queryClient.prefetchQuery(
    reviewsQueryOptions({ limit: LANDING_REVIEWS_PAGE_SIZE, offset: 0 }),
  );
}

function prefetchProductList({ search }: Where) {
  void queryClient.prefetchQuery(
    productsQueryOptions(productBrowserState(new URLSearchParams(search)).query),
  );
}

export const routes: RouteObject[] = [
  {
    path: "/",
    element: <RootLayout />,
    children: [
      page(undefined, home, prefetchHomeData),
      page("home", home, prefetchHomeData),
      page(
        "allproducts",
        lazyRoute(async () => (await import("./routes/all-products")).AllProductsRoute),
        prefetchProductList,
      ),
      page(
        "blogs",
        lazyRoute(async () => (await import("./routes/blogs")).BlogsRoute),
      ),
      page(
        "review",
        lazyRoute(async () => (await import("./routes/review")).ReviewRoute),
      ),
      page(
        "myprotfolio",
        lazyRoute(async () => (await import("./routes/portfolio")).PortfolioRoute),
      ),
      page(
        "login",
        lazyRoute(async () => (await import("./routes/login")).LoginRoute),
      ),
      page(
        "signup",
        lazyRoute(async () => (await import("./routes/signup")).SignupRoute),
      ),
      layout(
        lazyRoute(async () => (await import("./guards")).RequireAuth),
        [
          page(
            "products/:id",
            lazyRoute(async () => (await import("./routes/product")).ProductRoute),
          ),
          layout(
            lazyRoute(async () => (await import("./routes/dashboard-layout")).DashboardLayout),
            [
              page(
                undefined,
                lazyRoute(async () => (await import("./routes/profile")).ProfileRoute),
              ),
              layout(
                lazyRoute(async () => (await import("./guards")).RequireCustomer),
                [
                  page(
                    "reviews",
                    lazyRoute(async () => (await import("./routes/add-review")).AddReviewRoute),
                  ),
                  page(
                    "myitems",
                    lazyRoute(async () => (await import("./routes/my-items")).MyItemsRoute),
                  ),
                ],
              ),
              page(
                "payment/:id",
                lazyRoute(async () => (await import("./routes/payment")).PaymentRoute),
              ),
              layout(
                lazyRoute(async () => (await import("./guards")).RequireAdmin),
                [
                  page(
                    "allusers",
                    lazyRoute(async () => (await import("./routes/all-users")).AllUsersRoute),
                  ),
                  page(
                    "addProduct",
                    lazyRoute(async () => (await import("./routes/add-product")).AddProductRoute),
                  ),
                  page(
                    "manageallproducts",
                    lazyRoute(
                      async () => (await import("./routes/manage-products")).ManageProductsRoute,
                    ),
                  ),
                  page(
                    "manageallorders",
                    lazyRoute(
                      async () => (await import("./routes/manage-orders")).ManageOrdersRoute,
                    ),
                  ),
                ],
              ),
            ],
            "dashboard",
          ),
        ],
      ),
      page(
        "*",
        lazyRoute(async () => (await import("./routes/not-found")).NotFoundRoute),
      ),
    ],
  },
];

const matchedHandles = (pathname: string) =>
  (matchRoutes(routes, pathname) ?? []).flatMap((match) => {
    const handle = match.route.handle as RouteHandle | undefined;
    return handle ? [handle] : [];
  });

/** Loads the code of every page, layout and guard `pathname` leads to, all at once. */
export function loadRouteCode(pathname: string): Promise<unknown> {
  return Promise.all(matchedHandles(pathname).map((handle) => handle.route.preload()));
}

/**
 * Starts loading what `where` needs: the code of its page, layouts and guards, all at once
 * (rendering would discover them one inside the other), and the page's data. Idempotent: code
 * loads once, and fresh data is not fetched again. Resolves when the code is there.
 */
export function preloadRoute(where: Where): Promise<unknown> {
  for (const handle of matchedHandles(where.pathname)) handle.prefetch?.(where);
  return loadRouteCode(where.pathname);
}
