import type { SelectHTMLAttributes } from "react";

/**
 * A vehicle select's options (year, make, model, engine): the empty one first, saying what to
 * choose, then each year, or each record by its name.
 */
export function ChoiceOptions({
  empty,
  choices,
}: {
  empty: string;
  choices: readonly (number | { id: number; name: string })[] | undefined;
}) {
  return (
    <>
      <option value="">{empty}</option>
      {choices?.map((c) =>
        typeof c === "number" ? (
          <option key={c} value={c}>
            {c}
          </option>
        ) : (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ),
      )}
    </>
  );
}

/**
 * A vehicle select in its label: its `ChoiceOptions` (`empty`, `choices`), the other props the
 * select's own. `compact`: the fitment editor's small select, its label plain text; else the
 * vehicle selector's, its label a heading above it.
 */
export function ChoiceSelect({
  id,
  label,
  empty,
  choices,
  compact = false,
  ...select
}: {
  id: string;
  label: string;
  compact?: boolean;
} & Parameters<typeof ChoiceOptions>[0] &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "className">) {
  return (
    <label htmlFor={id} className={compact ? "flex flex-col gap-1 text-sm" : "flex flex-col gap-1"}>
      {compact ? label : <span className="text-sm font-medium">{label}</span>}
      <select
        id={id}
        className={
          compact ? "select select-bordered select-sm w-full" : "select select-bordered w-full"
        }
        {...select}
      >
        <ChoiceOptions empty={empty} choices={choices} />
      </select>
    </label>
  );
}
