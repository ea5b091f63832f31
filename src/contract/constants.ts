// Plain values shared by server and web. No zod here: the web's landing bundle imports this file.

export const MAX_PAGE_SIZE = 100;

/** Paging goes this deep at most: a deeper offset costs the database a long walk. */
export const MAX_OFFSET = 10_000;

/** Name of the response header that carries the total of a paged list. */
export const TOTAL_COUNT_HEADER = "x-total-count";

export const productSorts = ["newest", "price_asc", "price_desc", "name"] as const;
export type ProductSort = (typeof productSorts)[number];

/** The landing page shows the newest products (SPEC section 9: 3). */
export const NEWEST_PRODUCTS_COUNT = 3;

/** Products a page of All products shows. */
export const PRODUCTS_PAGE_SIZE = 12;
