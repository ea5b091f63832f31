/**
 * Every page path of the app, in one place (SPEC section 2): the router matches these and links
 * are built from them. A page with a parameter has its pattern and its link builder together.
 */
const withId = (pattern: `${string}:id`) => ({
  pattern,
  to: (id: string) => pattern.replace(":id", encodeURIComponent(id)),
});

export const paths = {
  home: "/",
  homeAlias: "/home",
  allProducts: "/allproducts",
  product: withId("/products/:id"),
  login: "/login",
  signup: "/signup",
  blogs: "/blogs",
  review: "/review",
  portfolio: "/myprotfolio",
  dashboard: "/dashboard",
  addReview: "/dashboard/reviews",
  myItems: "/dashboard/myitems",
  payment: withId("/dashboard/payment/:id"),
  allUsers: "/dashboard/allusers",
  addProduct: "/dashboard/addProduct",
  manageProducts: "/dashboard/manageallproducts",
  manageOrders: "/dashboard/manageallorders",
} as const;
