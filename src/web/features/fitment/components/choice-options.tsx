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
