// Plain values shared by server and web. No zod here: the web's landing bundle imports this file.

export const MAX_PAGE_SIZE = 100;

/** Paging goes this deep at most: a deeper offset costs the database a long walk. */
export const MAX_OFFSET = 10_000;

/** Name of the response header that carries the total of a paged list. */
export const TOTAL_COUNT_HEADER = "x-total-count";

export const productSorts = ["newest", "price_asc", "price_desc", "name"] as const;
export type ProductSort = (typeof productSorts)[number];

/** Part types: every product has one; /allproducts filters and links by them. */
export const productCategories = [
  "Brakes",
  "Filters",
  "Engine",
  "Ignition",
  "Suspension",
  "Steering",
  "Electrical",
  "Lighting",
  "Cooling",
  "Fuel",
  "Clutch",
  "Wipers",
  "Other",
] as const;
export type ProductCategory = (typeof productCategories)[number];

/** Kinds of cross-reference number: the carmaker's, another brand's, or a number we replaced. */
export const crossReferenceKinds = ["OE", "competitor", "superseded"] as const;
export type CrossReferenceKind = (typeof crossReferenceKinds)[number];

/**
 * A part number as it is compared: upper-case letters and digits only, so "04465-02220",
 * "04465 02220" and "0446502220" are one number. The database computes the same in SQL.
 */
export const normalizePartNumber = (s: string) => s.replace(/[^A-Za-z0-9]/g, "").toUpperCase();

/** The landing page shows the newest products (SPEC section 9: 3). */
export const NEWEST_PRODUCTS_COUNT = 3;

/** Products a page of All products shows. */
export const PRODUCTS_PAGE_SIZE = 12;

/** A cart holds at most this many different parts (one line per part). */
export const MAX_CART_LINES = 100;

/** What a customer sees about a cart line or the checkout (not in the spec: our own words). */
export const cartMessages = {
  empty: "Your cart is empty",
  tooManyLines: `A cart holds at most ${MAX_CART_LINES} different parts`,
  deleted: "This part is no longer sold; remove it to check out",
  outOfStock: "Out of stock; remove it to check out",
  repriced: (was: string, now: string) => `The price changed from ${was} to ${now}`,
  totalChanged: "Prices or stock changed while you checked out; please check your order again",
  forAdmins: "Admins do not order; the cart is for customers",
} as const;

/** Longest display name an account may have (sign-up, social sign-in, database CHECK). */
export const MAX_NAME_LENGTH = 80;
/** Longest profile image address an account may have (social sign-in, database CHECK). */
export const MAX_IMAGE_URL_LENGTH = 2048;
