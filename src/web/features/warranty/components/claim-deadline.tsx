import type { ClaimSummary } from "#contract/warranty";
import { deadlineWords } from "#contract/warranty-deadlines";

/**
 * Whose move an open claim waits for and by when, as `store` (an admin) or the claimant's side
 * reads it: "Waiting for you: answer by 14 Dec 2026"; in red, "Overdue. …", once the day passed.
 * Nothing for a decided claim.
 */
export function ClaimDeadlineNote({
  claim,
  store,
}: {
  claim: Pick<ClaimSummary, "deadline" | "status">;
  store: boolean;
}) {
  if (!claim.deadline) return null;
  return (
    <span
      className={`text-sm ${claim.deadline.overdue ? "font-semibold text-error" : "text-base-content/80"}`}
      data-testid="claim-deadline"
    >
      {deadlineWords(claim.deadline, claim.status, store ? "store" : "claimant")}
    </span>
  );
}
