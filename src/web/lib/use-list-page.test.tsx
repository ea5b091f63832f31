import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router";
import { expect, test } from "vitest";
import { useListPage, useListStates } from "./use-list-page";

const statuses = ["open", "paid"] as const;

/** A list of 25 a page whose answer has `total` items in all. */
function List({ total }: { total: number }) {
  const list = useListPage(25);
  const states = useListStates(list, {
    data: { items: [1], total },
    error: null,
    isPending: false,
    isPlaceholderData: false,
  });
  const { search } = useLocation();
  return (
    <>
      <output aria-label="where">{search}</output>
      <output aria-label="query">{JSON.stringify(list.query)}</output>
      <output aria-label="status">{list.choice("status", statuses) ?? "none"}</output>
      <output aria-label="pages">{states.pageCount}</output>
      <button type="button" onClick={() => list.search("belt")}>
        Search
      </button>
      <button type="button" onClick={() => states.onPage(1)}>
        First page
      </button>
    </>
  );
}

const shown = (name: string) => screen.getByRole("status", { name }).textContent;

const renderAt = (path: string, total = 100) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <List total={total} />
    </MemoryRouter>,
  );

test("the URL's page and search are the API's offset and q; a filter the page does not know reads as none", () => {
  renderAt("/companies?page=3&q=fleet&status=lost");
  expect(JSON.parse(shown("query") ?? "")).toEqual({ limit: 25, offset: 50, q: "fleet" });
  expect(shown("status")).toBe("none");
  expect(shown("pages")).toBe("4");
});

test("a new search starts from the first page and keeps the filters", () => {
  renderAt("/companies?page=3&status=paid");
  fireEvent.click(screen.getByRole("button", { name: "Search" }));
  expect(shown("where")).toBe("?status=paid&q=belt");
  expect(shown("status")).toBe("paid");
});

test("the first page has no page in its URL", () => {
  renderAt("/companies?page=2&q=x");
  fireEvent.click(screen.getByRole("button", { name: "First page" }));
  expect(shown("where")).toBe("?q=x");
});

test("a page past the end goes to the last page there is", () => {
  renderAt("/companies?page=9", 30);
  expect(shown("where")).toBe("?page=2");
});
