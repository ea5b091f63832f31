import type { ReactNode } from "react";
import { usePrerendering } from "../lib/prerendering";

interface SearchFormProps {
  /** The search box's visible label, e.g. "Search parts". */
  label: string;
  placeholder: string;
  /** The search in effect: the box shows it (again after Back or a cleared search). */
  value: string;
  /** Called with the trimmed text when Search is pressed. */
  onSearch: (q: string) => void;
  /** Controls beside the Search button, such as a sort or status select. */
  children?: ReactNode;
}

/** A search box with its Search button, as the product, user and order lists use it. */
export function SearchForm({ label, placeholder, value, onSearch, children }: SearchFormProps) {
  const prerendering = usePrerendering();
  return (
    <form
      role="search"
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const q = new FormData(e.currentTarget).get("q");
        onSearch(typeof q === "string" ? q.trim() : "");
      }}
    >
      <fieldset disabled={prerendering} className="contents">
        <label className="flex-1">
          <span className="mb-1 block text-sm font-medium">{label}</span>
          <input
            key={value}
            name="q"
            type="search"
            defaultValue={value}
            maxLength={100}
            // Until the app runs (pre-rendered page) the form is disabled: say why, in place.
            placeholder={prerendering ? "Search is loading…" : placeholder}
            className="input input-bordered w-full"
          />
        </label>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
        {children}
      </fieldset>
    </form>
  );
}
