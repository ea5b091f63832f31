import { createBrowserRouter, type RouteObject } from "react-router";
import { PageSpinner } from "../components/spinner";
import { RequireAdmin, RequireAuth, RequireCustomer } from "./guards";
import { RootLayout } from "./root-layout";

// Route modules are loaded on first visit, so public pages never download dashboard code.
const page = (path: string | undefined, load: () => Promise<RouteObject["Component"]>) =>
  ({
    ...(path === undefined ? { index: true } : { path }),
    lazy: async () => ({ Component: await load() }),
  }) as RouteObject;

export const router = createBrowserRouter([
  {
    path: "/",
    Component: RootLayout,
    HydrateFallback: PageSpinner,
    children: [
      page(undefined, async () => (await import("./routes/home")).HomeRoute),
      page("home", async () => (await import("./routes/home")).HomeRoute),
      page("allproducts", async () => (await import("./routes/all-products")).AllProductsRoute),
      page("blogs", async () => (await import("./routes/blogs")).BlogsRoute),
      page("review", async () => (await import("./routes/review")).ReviewRoute),
      page("myprotfolio", async () => (await import("./routes/portfolio")).PortfolioRoute),
      page("login", async () => (await import("./routes/login")).LoginRoute),
      page("signup", async () => (await import("./routes/signup")).SignupRoute),
      {
        Component: RequireAuth,
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
                Component: RequireCustomer,
                children: [
                  page("reviews", async () => (await import("./routes/add-review")).AddReviewRoute),
                  page("myitems", async () => (await import("./routes/my-items")).MyItemsRoute),
                ],
              },
              page("payment/:id", async () => (await import("./routes/payment")).PaymentRoute),
              {
                Component: RequireAdmin,
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
