import { usePrerendering } from "../lib/prerendering";

interface PaginationProps {
  page: number;
  pageCount: number;
  onChange(page: number): void;
}

export function Pagination({ page, pageCount, onChange }: PaginationProps) {
  // Disabled in a pre-rendered page (All products arrives with its first page of products): a
  // click before the app runs would land on HTML that is then replaced, and be lost.
  const prerendering = usePrerendering();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-3">
      <button
        type="button"
        className="btn btn-outline btn-sm"
        disabled={prerendering || page <= 1}
        onClick={() => onChange(page - 1)}
      >
        Previous
      </button>
      <span className="text-sm" aria-current="page">
        Page {page} of {pageCount}
      </span>
      <button
        type="button"
        className="btn btn-outline btn-sm"
        disabled={prerendering || page >= pageCount}
        onClick={() => onChange(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
