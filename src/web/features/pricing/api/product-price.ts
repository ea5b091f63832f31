import { useQuery } from "@tanstack/react-query";
import type { ProductPrice } from "#contract/pricing";
import { apiGet } from "../../../lib/api-client";

export const getProductPrice = (productId: string) =>
  apiGet<ProductPrice>(`/products/${encodeURIComponent(productId)}/price`);

/** The signed-in customer's own price of a product (a company buyer's price list and breaks). */
export function useProductPrice(productId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["product-price", productId],
    queryFn: () => getProductPrice(productId),
    enabled,
  });
}

/** One unit's price at this quantity: the last row of the table the quantity reaches. */
export function unitPriceAt(price: ProductPrice, qty: number): number {
  let unit = price.yourPrice;
  for (const row of price.breaks) if (qty >= row.minQty) unit = row.unitPrice;
  return unit;
}
