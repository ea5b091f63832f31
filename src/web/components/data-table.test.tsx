import { render, screen, within } from "@testing-library/react";
import { expect, test } from "vitest";
import { BreakableEmail, DataTable, ListStates, ListTable, type Column } from "./data-table";

interface Part {
  id: string;
  name: string;
  price: number;
}

const columns: Column<Part>[] = [
  { header: "Picture", role: "media", cell: () => <img alt="" src="/x.svg" /> },
  { header: "Name", role: "title", cell: (p) => p.name },
  { header: "Price", numeric: true, testId: "price", cell: (p) => `$${p.price}` },
  {
    header: "Actions",
    role: "actions",
    cell: (p) => <button type="button">{`Edit ${p.name}`}</button>,
  },
];
const parts = [
  { id: "1", name: "Brake pad set", price: 30 },
  { id: "2", name: "Oil filter", price: 8 },
];

test("columns are declared once: headers, a row header per row, cells, actions", () => {
  render(<DataTable label="Parts" columns={columns} rows={parts} rowKey={(p) => p.id} />);
  const table = screen.getByRole("table", { name: "Parts" });
  expect(
    within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent),
  ).toEqual(["Picture", "Name", "Price", "Actions"]);
  expect(
    within(table)
      .getAllByRole("rowheader")
      .map((h) => h.textContent),
  ).toEqual(["Brake pad set", "Oil filter"]);
  expect(screen.getAllByTestId("price").map((c) => c.textContent)).toEqual(["$30", "$8"]);
  expect(screen.getByRole("button", { name: "Edit Oil filter" })).toBeTruthy();
});

test("in the card view a field shows its column's name as its label; media and actions do not", () => {
  render(<DataTable label="Parts" columns={columns} rows={parts} rowKey={(p) => p.id} />);
  const [price] = screen.getAllByTestId("price");
  expect(price!.getAttribute("data-label")).toBe("Price");
  const actions = screen.getByRole("button", { name: "Edit Oil filter" }).closest("td")!;
  expect(actions.hasAttribute("data-label")).toBe(false);
});

test("an empty list says whether nothing exists or nothing matches the search", () => {
  const states = (filtered: boolean) => (
    <ListStates
      isPending={false}
      error={null}
      count={0}
      filtered={filtered}
      empty="You have no orders yet"
      noMatch="No orders match your search"
    >
      <p>the list</p>
    </ListStates>
  );
  const { rerender } = render(states(false));
  expect(screen.getByText("You have no orders yet")).toBeTruthy();
  expect(screen.queryByText("the list")).toBeNull();
  rerender(states(true));
  expect(screen.getByText("No orders match your search")).toBeTruthy();
});

test("a list with items shows its summary, the items and paging", () => {
  render(
    <ListStates
      isPending={false}
      error={null}
      count={2}
      filtered={false}
      empty="none"
      noMatch="no match"
      summary="2 parts"
      page={1}
      pageCount={3}
      onPage={() => {}}
    >
      <p>the list</p>
    </ListStates>,
  );
  expect(screen.getByText("2 parts")).toBeTruthy();
  expect(screen.getByText("the list")).toBeTruthy();
  expect(screen.getByText("Page 1 of 3")).toBeTruthy();
});

test("a list table says a list without rows is empty, else shows its summary and rows", () => {
  const table = (rows: Part[]) => (
    <ListTable
      isPending={false}
      error={null}
      empty="No parts yet"
      summary={`${rows.length} parts`}
      label="Parts"
      columns={columns}
      rows={rows}
      rowKey={(p) => p.id}
      rowTestId="part-row"
    />
  );
  const { rerender } = render(table([]));
  expect(screen.getByText("No parts yet")).toBeTruthy();
  expect(screen.queryByRole("table")).toBeNull();
  rerender(table(parts));
  expect(screen.getByText("2 parts")).toBeTruthy();
  expect(screen.getAllByTestId("part-row")).toHaveLength(2);
  expect(screen.getByRole("table", { name: "Parts" })).toBeTruthy();
});

test("an email may wrap only before its @ and its dots", () => {
  const { container } = render(<BreakableEmail email="first.last@garage.example.com" />);
  expect(container.textContent).toBe("first.last@garage.example.com");
  expect(container.querySelectorAll("wbr")).toHaveLength(4);
  expect(container.innerHTML).toContain("first<wbr>.last<wbr>@garage<wbr>.example<wbr>.com");
});
