import type { ReactNode } from "react";

/**
 * One of a list's filters (a status, an age, a code), kept in the URL by its page: a labelled
 * select whose empty option stands for "any" ("All", "Every status"); `onChange` is told the
 * value chosen, or undefined for that empty option. Beside a SearchForm's search, or on its own
 * (`className`, e.g. `w-fit`, sizes it there).
 */
export function ListFilter(props: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  /** Its options: the empty one first (`SelectOptions` writes them). */
  children: ReactNode;
  className?: string;
}) {
  return (
    <label className={props.className ? `flex flex-col ${props.className}` : "flex flex-col"}>
      <span className="mb-1 text-sm font-medium">{props.label}</span>
      <select
        className="select select-bordered"
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value || undefined)}
      >
        {props.children}
      </select>
    </label>
  );
}
