import { fireEvent, render, screen, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import type { Facet } from "#contract/facets";
import { FacetFilters } from "./facet-filters";

const diameter: Facet = {
  attributeId: "11111111-1111-4111-8111-111111111111",
  name: "Diameter",
  kind: "number",
  unit: "mm",
  values: [
    { value: "280", count: 3 },
    { value: "300", count: 1200 },
  ],
};
const vent: Facet = {
  attributeId: "22222222-2222-4222-8222-222222222222",
  name: "Vent type",
  kind: "choice",
  unit: null,
  values: [{ value: "Vented", count: 2 }],
};
const checked = (el: HTMLElement) => (el as HTMLInputElement).checked;
const param = (f: Facet, value: string) => `${f.attributeId}:${value}`;

test("a group per attribute, named with its unit, a checkbox per value with its count", () => {
  render(<FacetFilters facets={[diameter, vent]} chosen={[]} onChange={() => {}} />);
  const group = screen.getByRole("group", { name: "Diameter (mm)" });
  expect(
    within(group)
      .getAllByRole("checkbox")
      .map((c) => c.closest("label")!.textContent),
  ).toEqual(["280 (3)", "300 (1,200)"]);
  const vented = within(screen.getByRole("group", { name: "Vent type" })).getByRole("checkbox", {
    name: "Vented (2)",
  });
  expect(checked(vented)).toBe(false);
});

test("the URL's values are ticked; ticking adds a value, unticking removes it", () => {
  const onChange = vi.fn();
  const chosen = [param(diameter, "280")];
  render(<FacetFilters facets={[diameter, vent]} chosen={chosen} onChange={onChange} />);
  const d280 = screen.getByRole("checkbox", { name: "280 (3)" });
  expect(checked(d280)).toBe(true);
  expect(checked(screen.getByRole("checkbox", { name: "300 (1,200)" }))).toBe(false);

  fireEvent.click(screen.getByRole("checkbox", { name: "Vented (2)" }));
  expect(onChange).toHaveBeenLastCalledWith([param(diameter, "280"), param(vent, "Vented")]);
  fireEvent.click(d280);
  expect(onChange).toHaveBeenLastCalledWith([]);
});
