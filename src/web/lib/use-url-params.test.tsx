import { act, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { MemoryRouter, useLocation, useNavigate } from "react-router";
import { expect, test } from "vitest";
import { useUrlParams } from "./use-url-params";

type Update = ReturnType<typeof useUrlParams>[1];

/** A list's controls: each button changes the URL the way a list page does. */
function Controls() {
  const [params, update] = useUrlParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const [kept] = useState<{ update: Update }>(() => ({ update }));
  return (
    <>
      <output aria-label="where">{search}</output>
      <output aria-label="sort">{params.get("sort") ?? "none"}</output>
      <button
        type="button"
        onClick={() => {
          update({ q: undefined });
          update({ sort: "price" });
        }}
      >
        Clear and sort
      </button>
      <button type="button" onClick={() => update({ attr: ["a", "b"], page: undefined })}>
        Two attributes
      </button>
      <button type="button" onClick={() => kept.update({ q: "belt" })}>
        Search from the first render
      </button>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
    </>
  );
}

const where = () => screen.getByRole("status", { name: "where" }).textContent;
const click = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Controls />
    </MemoryRouter>,
  );

test("two changes in one go both reach the URL", () => {
  renderAt("/products?q=radiator&page=2");
  click("Clear and sort");
  expect(where()).toBe("?page=2&sort=price");
  expect(screen.getByRole("status", { name: "sort" }).textContent).toBe("price");
});

test("a list value repeats its parameter and an empty one removes it", () => {
  renderAt("/products?page=3&attr=z");
  click("Two attributes");
  expect(where()).toBe("?attr=a&attr=b");
});

test("an update kept from an earlier render starts from the URL as it is now", () => {
  renderAt("/products?page=2");
  click("Two attributes");
  click("Search from the first render");
  expect(where()).toBe("?attr=a&attr=b&q=belt");
});

test("after going back, a change starts from the page gone back to", async () => {
  renderAt("/products?page=2");
  click("Two attributes");
  await act(async () => click("Back"));
  expect(where()).toBe("?page=2");
  click("Search from the first render");
  expect(where()).toBe("?page=2&q=belt");
});
