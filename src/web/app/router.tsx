import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from "react-router";
import { PageSpinner } from "../components/spinner";
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
import { queryClient } from "./query-client";
import { RootLayout } from "./root-layout";

// Route modules are loaded on first visit, so public pages never download dashboard code. A
// page's `prefetch` asks for its data while its code loads, rather than once it has rendered; it
// does not wait for the data: the page shows skeletons until it arrives.
const page = (
  path: string | undefined,
  load: () => Promise<RouteObject["Component"]>,
  prefetch?: (url: URL) => void,
) =>
  ({
    ...(path === undefined ? { index: true } : { path }),
    lazy: async () => ({ Component: await load() }),
    ...(prefetch && {
      loader: ({ request }: LoaderFunctionArgs) => {
        prefetch(new URL(request.url));
        return null;
      },
    }),
  }) as RouteObject;

// The guards too: the router loads them alongside the page they guard, in parallel.
const guard = (load: () => Promise<RouteObject["Component"]>) => ({
  lazy: async () => ({ Component: await load() }),
});

const loadHome = async () => (await import("./routes/home")).HomeRoute;

function prefetchHomeData() {
  void queryClient.prefetchQuery(productsQueryOptions(NEWEST_PRODUCTS_QUERY));
  void queryClient.prefetchQuery(reviewSummaryQueryOptions());
  void queryClient.prefetchQuery(
    reviewsQueryOptions({ limit: LANDING_REVIEWS_PAGE_SIZE, offset: 0 }),
  );
}

function prefetchProductList(url: URL) {
  void queryClient.prefetchQuery(productsQueryOptions(productBrowserState(url.searchParams).query));
}

export const router = createBrowserRouter([
  {
    path: "/",
    Component: RootLayout,
    HydrateFallback: PageSpinner,
    children: [
      page(undefined, loadHome, prefetchHomeData),
      page("home", loadHome, prefetchHomeData),
      page(
        "allproducts",
        async () => (await import("./routes/all-products")).AllProductsRoute,
        prefetchProductList,
      ),
      page("blogs", async () => (await import("./routes/blogs")).BlogsRoute),
      page("review", async () => (await import("./routes/review")).ReviewRoute),
      page("myprotfolio", async () => (await import("./routes/portfolio")).PortfolioRoute),
      page("login", async () => (await import("./routes/login")).LoginRoute),
      page("signup", async () => (await import("./routes/signup")).SignupRoute),
      {
        ...guard(async () => (await import("./guards")).RequireAuth),
        children: [
          page("products/:id", async () => (await import("./routes/product")).ProductRoute),
          {
            path: "dashboard",
            lazy: async () => ({
              Component: (await import("./routes/dashboard-layout")).DashboardLayout,
            }),
            children: [
              page(undefined, async () => (await import("./routes/profile")).ProfileRoute),
              {
                ...guard(async () => (await import("./guards")).RequireCustomer),
                children: [
                  page("reviews", async () => (await import("./routes/add-review")).AddReviewRoute),
                  page("myitems", async () => (await import("./routes/my-items")).MyItemsRoute),
                ],
              },
              page("payment/:id", async () => (await import("./routes/payment")).PaymentRoute),
              {
                ...guard(async () => (await import("./guards")).RequireAdmin),
                children: [
                  page("allusers", async () => (await import("./routes/all-users")).AllUsersRoute),
                  page(
                    "addProduct",
                    async () => (await import("./routes/add-product")).AddProductRoute,
                  ),
                  page(
                    "manageallproducts",
                    async () => (await import("./routes/manage-products")).ManageProductsRoute,
                  ),
                  page(
                    "manageallorders",
                    async () => (await import("./routes/manage-orders")).ManageOrdersRoute,
                  ),
                ],
              },
            ],
          },
        ],
      },
      page("*", async () => (await import("./routes/not-found")).NotFoundRoute),
    ],
  },
]);
