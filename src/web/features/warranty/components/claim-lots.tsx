/**
 * The production lots the claimed line shipped in (docs/warranty.md "Lots"), as one row of the
 * claim's details; nothing when the store recorded none.
 */
export function ClaimLots({ lots }: { lots: readonly string[] }) {
  if (lots.length === 0) return null;
  return (
    <>
      <dt className="text-base-content/75">{lots.length === 1 ? "Lot" : "Lots"}</dt>
      <dd className="font-mono break-all" data-testid="claim-lots">
        {lots.join(", ")}
      </dd>
    </>
  );
}
