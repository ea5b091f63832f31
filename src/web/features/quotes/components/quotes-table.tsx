import { plural } from "#contract/count";
import { useState } from "react";
import {
  quoteAdminStatusLabels,
  quoteStatuses,
  quoteStatusLabels,
  type Quote,
  type QuoteStatus,
} from "#contract/quotes";
import { paths } from "#contract/paths";
import { NameAndEmail, ListTable, StatusBadge, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { formatDate, formatPrice } from "../../../lib/format";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useQuotes } from "../api/quotes";
import { SelectOptions } from "../../../components/select-options";

const PAGE_SIZE = 20;

const badge: Record<QuoteStatus, string> = {
  requested: "badge-warning",
  sent: "badge-info",
  accepted: "badge-success",
  declined: "badge-ghost",
  expired: "badge-ghost",
};

/**
 * Quotes (docs/quotes.md): a customer's company's, or every quote for an admin. Search (by
 * reference, requester or company), a status filter and pages, kept in the address; a table on
 * wide screens, cards on phones.
 */
export function QuotesTable({ admin }: { admin: boolean }) {
  const list = useListPage(PAGE_SIZE);
  const { q } = list;
  const status = list.choice("status", quoteStatuses);
  const [draft, setDraft] = useState(q);
  const answer = useQuotes({ ...list.query, status });
  const states = useListStates(list, answer, (total) => plural(total, "quote"));
  const labels = admin ? quoteAdminStatusLabels : quoteStatusLabels;

  const columns: Column<Quote>[] = [
    {
      header: "Quote",
      role: "title",
      cell: (x) => (
        <span className="flex flex-col gap-0.5">
          <Link to={paths.quote.to(x.id)} className="link link-hover whitespace-nowrap">
            Quote {x.reference}
          </Link>
          <span className="text-xs font-normal text-base-content/75">
            {formatDate(x.createdAt)}
            {x.companyName ? ` · ${x.companyName}` : ""}
          </span>
        </span>
      ),
    },
    {
      header: "Status",
      testId: "quote-status",
      cell: (x) => <StatusBadge tone={badge[x.status]}>{labels[x.status]}</StatusBadge>,
    },
    {
      header: "Requested by",
      cell: (x) => <NameAndEmail name={x.requesterName} email={x.requesterEmail} />,
    },
    {
      header: "Parts",
      from: "lg",
      cell: (x) => plural(x.lines.length, "line"),
    },
    {
      header: "Total",
      numeric: true,
      cell: (x) => (x.total === null ? "Not priced yet" : formatPrice(x.total, x.currency)),
    },
    {
      header: "Expires",
      from: "lg",
      cell: (x) => (x.expiresAt ? formatDate(x.expiresAt) : "—"),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <form
          role="search"
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            list.search(draft.trim());
          }}
        >
          <label className="flex flex-col gap-1">
            <span className="text-sm font-medium">Search quotes</span>
            <input
              type="search"
              className="input input-bordered input-sm"
              placeholder={admin ? "Reference, email, company" : "Reference or name"}
              value={draft}
              maxLength={100}
              onChange={(e) => setDraft(e.target.value)}
            />
          </label>
          <button type="submit" className="btn btn-sm self-end">
            Search
          </button>
        </form>
        <label className="flex flex-col gap-1">
          <span className="text-sm font-medium">Status</span>
          <select
            className="select select-sm select-bordered"
            value={status ?? ""}
            onChange={(e) => list.refine({ status: e.target.value })}
          >
            <SelectOptions empty="All" values={quoteStatuses} labels={labels} />
          </select>
        </label>
      </div>
      <ListTable
        {...states}
        filtered={Boolean(q || status)}
        empty={
          admin
            ? "No quote requests yet."
            : "You have no quotes yet: ask for one from your cart (Request a quote)."
        }
        noMatch="No quotes match your search."
        label="Quotes"
        columns={columns}
        rowKey={(x) => x.id}
        rowTestId="quote-row"
      />
    </div>
  );
}
