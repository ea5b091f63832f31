import { returnStatusLabels, type ReturnStatus } from "#contract/returns";

const tones: Record<ReturnStatus, string> = {
  requested: "badge-ghost",
  approved: "badge-info",
  refused: "badge-error",
  received: "badge-warning",
  inspecting: "badge-warning",
  refund_failed: "badge-error",
  refunded: "badge-success",
  closed: "badge-neutral",
};

/** A return's status, in words. */
export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  return (
    <span className={`badge h-auto ${tones[status]}`} data-testid="return-status">
      {returnStatusLabels[status]}
    </span>
  );
}
