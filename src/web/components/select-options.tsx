/**
 * A select's options: the empty one first, saying what it stands for ("All", "Choose…"), then
 * each value, shown by its label (or as itself, without labels).
 */
export function SelectOptions<V extends string>({
  empty,
  values,
  labels,
}: {
  empty: string;
  values: readonly V[];
  labels?: Record<V, string>;
}) {
  return (
    <>
      <option value="">{empty}</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {labels ? labels[v] : v}
        </option>
      ))}
    </>
  );
}
