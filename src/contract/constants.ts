// Plain values shared by server and web. No zod here: the web's landing bundle imports this file.

export const MAX_PAGE_SIZE = 100;

/** Name of the response header that carries the total of a paged list. */
export const TOTAL_COUNT_HEADER = "x-total-count";

export const productSorts = ["newest", "price_asc", "price_desc", "name"] as const;
export type ProductSort = (typeof productSorts)[number];
