import { createBrowserRouter } from "react-router";
import { PageSpinner } from "../components/spinner";
import { RootLayout } from "./root-layout";

export const router = createBrowserRouter([
  {
    path: "/",
    Component: RootLayout,
    HydrateFallback: PageSpinner,
    children: [
      { index: true, lazy: async () => ({ Component: (await import("./routes/home")).HomeRoute }) },
      {
        path: "home",
        lazy: async () => ({ Component: (await import("./routes/home")).HomeRoute }),
      },
      {
        path: "allproducts",
        lazy: async () => ({
          Component: (await import("./routes/all-products")).AllProductsRoute,
        }),
      },
      {
        path: "products/:id",
        lazy: async () => ({ Component: (await import("./routes/product")).ProductRoute }),
      },
      {
        path: "blogs",
        lazy: async () => ({ Component: (await import("./routes/blogs")).BlogsRoute }),
      },
      {
        path: "review",
        lazy: async () => ({ Component: (await import("./routes/review")).ReviewRoute }),
      },
      {
        path: "myprotfolio",
        lazy: async () => ({ Component: (await import("./routes/portfolio")).PortfolioRoute }),
      },
      {
        path: "*",
        lazy: async () => ({ Component: (await import("./routes/not-found")).NotFoundRoute }),
      },
    ],
  },
]);
