import { backorderMessages } from "#contract/backorders";
import type { CartLine } from "#contract/cart";

/**
 * What a cart line above the shelf ships now and what waits on backorder, until when
 * (docs/inventory.md "Backorders"): the cart's and the checkout's words.
 */
export function BackorderNote({ line, className }: { line: CartLine; className: string }) {
  if (!line.backorder) return null;
  return (
    <span className={className} data-testid="line-backorder">
      {backorderMessages.cartLine(
        line.qty - line.backorder.qty,
        line.backorder.qty,
        line.backorder.expectedOn,
      )}
    </span>
  );
}
