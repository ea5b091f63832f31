import { useState } from "react";
import { claimStatuses, claimStatusLabels, type ClaimSummary } from "#contract/warranty";
import { ListStates } from "../../../components/data-table";
import { ListFilter } from "../../../components/list-filter";
import { SearchForm } from "../../../components/search-form";
import { SelectOptions } from "../../../components/select-options";
import { PageSpinner } from "../../../components/spinner";
import { QueryError } from "../../../components/query-error";
import { formatDate } from "../../../lib/format";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useClaim, useClaims, useFailureCodes } from "../api/warranty";
import { ClaimCard, ClaimStatusBadge } from "./claim-card";
import { ClaimDeadlineNote } from "./claim-deadline";
import { RowButton } from "../../../components/edit-remove-buttons";

const PAGE_SIZE = 20;
/** The age filter's choices, in days since the claim was filed. */
const AGES = ["7", "30", "90"] as const;
const AGE_LABELS = Object.fromEntries(AGES.map((a) => [a, `${a} days ago or more`])) as Record<
  (typeof AGES)[number],
  string
>;

/**
 * Warranty claims, newest first, a page at a time, filtered by status, part or number, age and
 * (admins) the inspection's failure code (all in the URL): every claim for admins (the queue), the caller's and their company's for
 * customers. A claim opens in place with its history and, while open, its answer box.
 */
export function ClaimsList({ store }: { store: boolean }) {
  const list = useListPage(PAGE_SIZE);
  const status = list.choice("status", claimStatuses);
  const age = list.choice("age", AGES);
  // The failure codes are the admin's list: a customer filters by status and age only.
  const codes = useFailureCodes(store);
  const code = (store && list.params.get("code")) || undefined;
  const answer = useClaims({
    ...list.query,
    status,
    olderThanDays: age ? Number(age) : undefined,
    failureCode: code,
  });
  const states = useListStates(list, answer);
  const [open, setOpen] = useState<string>();
  return (
    <div className="flex flex-col gap-4">
      <SearchForm
        label="Find a claim"
        placeholder="Part number, part name or claim number"
        value={list.q}
        onSearch={list.search}
      >
        <ListFilter
          label="Status"
          value={status}
          onChange={(value) => list.refine({ status: value })}
        >
          <SelectOptions empty="Every status" values={claimStatuses} labels={claimStatusLabels} />
        </ListFilter>
        <ListFilter label="Filed" value={age} onChange={(value) => list.refine({ age: value })}>
          <SelectOptions empty="Any time" values={AGES} labels={AGE_LABELS} />
        </ListFilter>
        {store && (
          <ListFilter
            label="Failure code"
            value={code}
            onChange={(value) => list.refine({ code: value })}
          >
            <option value="">Any code</option>
            {codes.data?.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.label}
              </option>
            ))}
          </ListFilter>
        )}
      </SearchForm>
      <ListStates
        {...states}
        filtered={Boolean(list.q || status || age || code)}
        empty={store ? "No warranty claims yet." : "You have filed no warranty claims."}
        noMatch="No claims match."
      >
        <ul className="flex flex-col gap-2" aria-label="Warranty claims">
          {states.rows.map((c) => (
            <li key={c.id}>
              {open === c.id ? (
                <OpenClaim id={c.id} store={store} onClose={() => setOpen(undefined)} />
              ) : (
                <ClaimRow claim={c} store={store} onOpen={() => setOpen(c.id)} />
              )}
            </li>
          ))}
        </ul>
      </ListStates>
    </div>
  );
}

function ClaimRow({
  claim,
  store,
  onOpen,
}: {
  claim: ClaimSummary;
  store: boolean;
  onOpen(): void;
}) {
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-box border border-base-300 p-3"
      data-testid="claim-row"
    >
      <span className="font-mono font-semibold">{claim.number}</span>
      <ClaimStatusBadge status={claim.status} />
      <span className="min-w-0 flex-1 text-sm">
        {claim.qty} × {claim.productName}
        {claim.partNumber && ` (${claim.partNumber})`}
        <span className="block text-base-content/75">
          Filed {formatDate(claim.filedAt)} · order {claim.orderNumber} ·{" "}
          {claim.claimant.company ?? claim.claimant.name}
        </span>
        <ClaimDeadlineNote claim={claim} store={store} />
      </span>
      <RowButton label={`Open claim ${claim.number}`} onClick={onOpen}>
        Open
      </RowButton>
    </div>
  );
}

function OpenClaim({ id, store, onClose }: { id: string; store: boolean; onClose(): void }) {
  const claim = useClaim(id, true);
  if (claim.isPending) return <PageSpinner />;
  if (claim.error) return <QueryError error={claim.error} />;
  return (
    <div className="flex flex-col gap-1">
      <ClaimCard claim={claim.data} store={store} withOrder />
      <div>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
