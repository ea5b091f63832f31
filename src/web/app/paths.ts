/** Every page path of the app, in one place (SPEC section 2). */
export const paths = {
  home: "/",
  homeAlias: "/home",
  allProducts: "/allproducts",
  product: (id: string) => `/products/${id}`,
  login: "/login",
  signup: "/signup",
  blogs: "/blogs",
  review: "/review",
  portfolio: "/myprotfolio",
  dashboard: "/dashboard",
} as const;
