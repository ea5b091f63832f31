import { plural } from "#contract/count";
import { backorderQueueWords, type QueuedBackorder } from "#contract/backorder-queue";
import { paths } from "#contract/paths";
import {
  BreakableEmail,
  ListTable,
  StatusBadge,
  type Column,
} from "../../../components/data-table";
import { Link } from "../../../components/link";
import { SearchForm } from "../../../components/search-form";
import { formatDate, formatOrderNumber } from "../../../lib/format";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useBackorderQueue } from "../api/supply";
import { dayWords } from "#contract/calendar";

const PAGE_SIZE = 25;

const columns: Column<QueuedBackorder>[] = [
  {
    header: "Order",
    role: "title",
    cell: (b) => (
      <Link to={paths.order.to(b.orderId)} className="link font-mono whitespace-nowrap">
        {formatOrderNumber(b)}
      </Link>
    ),
  },
  {
    header: "Buyer",
    cell: (b) => (
      <span className="flex flex-col max-md:items-end">
        {b.companyName && <span className="font-medium">{b.companyName}</span>}
        <span>{b.customerName}</span>
        <BreakableEmail email={b.customerEmail} />
      </span>
    ),
  },
  {
    header: "Part",
    cell: (b) => (
      <span className="flex flex-col max-md:items-end">
        <span className="font-mono whitespace-nowrap">{b.partNumber}</span>
        <span>{b.productName}</span>
      </span>
    ),
  },
  {
    header: "Waiting",
    numeric: true,
    testId: "backorder-waiting",
    cell: (b) => (b.waiting === b.qty ? `${b.waiting}` : `${b.waiting} of ${b.qty}`),
  },
  {
    header: "Promised",
    testId: "backorder-promised",
    cell: (b) => (b.promisedOn ? dayWords(b.promisedOn) : backorderQueueWords.noDate),
  },
  {
    header: "Placed",
    cell: (b) => <time dateTime={b.placedAt}>{formatDate(b.placedAt)}</time>,
  },
  {
    header: "Ships",
    testId: "backorder-ships",
    cell: (b) =>
      b.shipComplete ? (
        <StatusBadge tone="badge-warning">{backorderQueueWords.shipsComplete}</StatusBadge>
      ) : (
        <StatusBadge tone="badge-ghost">{backorderQueueWords.shipsWhatIsThere}</StatusBadge>
      ),
  },
];

/**
 * Admin: the backorder queue (docs/inventory.md "The backorder queue"): every order line with
 * units waiting for supply, across all parts, first placed first (the order supply fills them),
 * with its promised date; searched by order, buyer, company or part, or one part's (`?productId=`).
 */
export function BackorderQueue() {
  const list = useListPage(PAGE_SIZE);
  const productId = list.params.get("productId") ?? undefined;
  const answer = useBackorderQueue({ ...list.query, productId });
  const states = useListStates(
    list,
    answer,
    (total) => `${plural(total, "order line waits", "order lines wait")} for supply`,
  );
  const { data } = answer;
  const part = productId ? data?.items[0] : undefined;
  return (
    <div className="flex flex-col gap-4">
      <SearchForm
        label="Search backorders"
        placeholder="Order number, buyer, email, company or part"
        value={list.q}
        onSearch={list.search}
      />
      {productId && (
        <p role="status" className="flex flex-wrap items-center gap-2">
          <span>
            Only {part ? <span className="font-mono">{part.partNumber}</span> : "one part"}
          </span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => list.refine({ productId: undefined })}
          >
            Show every part
          </button>
        </p>
      )}
      <ListTable
        {...states}
        filtered={list.q !== "" || productId !== undefined}
        empty={backorderQueueWords.empty}
        noMatch={list.q ? backorderQueueWords.noMatch(list.q) : backorderQueueWords.empty}
        label="Backorders"
        columns={columns}
        rowKey={(b) => b.id}
        rowTestId="backorder"
      />
      <p className="text-sm text-base-content/75">
        Supply received goes to these lines first, in this order. Dates come from the open runs and
        purchase orders on the{" "}
        <Link to={paths.incomingSupply} className="link">
          Incoming supply
        </Link>{" "}
        page, else from the part&apos;s lead time.
      </p>
    </div>
  );
}
