import { useState } from "react";
import type { Order } from "#contract/orders";
import type { Claimable } from "#contract/warranty";
import { useClaimable, useOrderClaims } from "../api/warranty";
import { dayWords } from "#contract/calendar";
import { ClaimCard } from "./claim-card";
import { ClaimForm } from "./claim-form";
import { RowButton } from "../../../components/edit-remove-buttons";

/**
 * The order page's warranty: for the buyer's side, each shipped line's warranty (until when, or
 * why it cannot be claimed) with "Claim warranty"; then the order's claims with their history.
 */
export function OrderWarranty({
  order,
  canClaim,
  partlyShipped = false,
}: {
  order: Order;
  /** The buyer's side (not an admin): may file claims. */
  canClaim: boolean;
  /** Some lines of a paid order have shipped (docs/shipments.md). */
  partlyShipped?: boolean;
}) {
  const shipped = order.status === "shipped" || (order.status === "paid" && partlyShipped);
  const claimable = useClaimable(order._id, shipped && canClaim);
  const claims = useOrderClaims(order._id, shipped);
  const [claiming, setClaiming] = useState<Claimable["lines"][number]>();
  if (!shipped) return null;
  const hasClaims = (claims.data?.length ?? 0) > 0;
  if (!canClaim && !hasClaims) return null;
  const lines = claimable.data?.lines.filter((l) => l.shipped > 0 && l.warrantyMonths > 0) ?? [];
  return (
    <section aria-labelledby="warranty-heading" className="flex flex-col gap-3">
      <h2 id="warranty-heading" className="text-lg font-bold">
        Warranty
      </h2>
      {(claimable.error || claims.error) && (
        <p className="text-sm text-error">The warranty of this order could not be loaded.</p>
      )}
      {canClaim && lines.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Warranty of each part">
          {lines.map((l) => (
            <li
              key={l.line}
              className="flex flex-wrap items-center justify-between gap-2 text-sm"
              data-testid="warranty-line"
            >
              <span>
                {l.productName}
                {l.endsOn && (
                  <span className="block text-base-content/80">
                    {l.reason ?? `Under warranty until ${dayWords(l.endsOn)}`}
                  </span>
                )}
              </span>
              {l.claimable > 0 && (
                <RowButton
                  label={`Claim warranty: ${l.productName}`}
                  tone="outline"
                  onClick={() => setClaiming(l)}
                >
                  Claim warranty
                </RowButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {hasClaims && (
        <div className="flex flex-col gap-2">
          {claims.data!.map((c) => (
            <ClaimCard key={c.id} claim={c} store={!canClaim} />
          ))}
        </div>
      )}
      {claiming && (
        <ClaimForm orderId={order._id} line={claiming} onClose={() => setClaiming(undefined)} />
      )}
    </section>
  );
}
