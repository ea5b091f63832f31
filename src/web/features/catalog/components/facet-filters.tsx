import type { Facet } from "#contract/facets";
import { attributeFilterParam, facetLegend } from "#contract/facet-params";
import { formatCount } from "#contract/count";
import { startTransition, useOptimistic } from "react";

/**
 * The chosen category's attribute filters: a group of checkboxes per attribute ("Diameter (mm)":
 * "280 (3)", "300 (1)"), each count how many parts have the value with the other filters
 * applied. `chosen` and `onChange` are the URL's `attr` parameters: a box shows its new state at
 * once, while the URL (and the list) follow.
 */
export function FacetFilters({
  facets,
  chosen,
  onChange,
}: {
  facets: readonly Facet[];
  chosen: readonly string[];
  onChange: (attr: string[]) => void;
}) {
  const [ticked, setTicked] = useOptimistic(chosen);
  const picked = new Set(ticked);
  const choose = (next: string[]) =>
    startTransition(() => {
      setTicked(next);
      onChange(next);
    });
  return (
    <div className="flex flex-col gap-4" data-testid="facets">
      {facets.map((facet) => (
        <fieldset key={facet.attributeId}>
          <legend className="mb-1 text-sm font-medium">{facetLegend(facet)}</legend>
          <ul className="flex flex-col gap-1">
            {facet.values.map(({ value, count }) => {
              const param = attributeFilterParam(facet.attributeId, value);
              return (
                <li key={value}>
                  <label className="flex cursor-pointer items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="checkbox checkbox-sm"
                      checked={picked.has(param)}
                      onChange={(e) =>
                        choose(
                          e.target.checked ? [...ticked, param] : ticked.filter((c) => c !== param),
                        )
                      }
                    />
                    {`${value} (${formatCount(count)})`}
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ))}
    </div>
  );
}
