import { fireEvent, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router";
import { expect, test } from "vitest";
import { Link, NavLink } from "./link";

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="where">{pathname + search}</output>;
}

function renderAt(path: string, links: ReactNode) {
  render(
    <MemoryRouter initialEntries={[path]}>
      {links}
      <Where />
    </MemoryRouter>,
  );
}

const where = () => screen.getByRole("status", { name: "where" }).textContent;

test("a link has the path as its href and navigates in the app on a plain click", () => {
  renderAt("/", <Link to="/allproducts">Parts</Link>);
  const link = screen.getByRole("link", { name: "Parts" });
  expect(link.getAttribute("href")).toBe("/allproducts");
  expect(fireEvent.click(link)).toBe(false); // default prevented: no page load
  expect(where()).toBe("/allproducts");
});

test("a modified click, or one on a link to another window, is left to the browser", () => {
  renderAt(
    "/",
    <>
      <Link to="/blogs">Blogs</Link>
      <Link to="/review" target="_blank">
        Review
      </Link>
    </>,
  );
  // What the app did with the click, seen after it (and then stopped: jsdom cannot open pages).
  const leftToBrowser: boolean[] = [];
  const record = (e: MouseEvent) => {
    leftToBrowser.push(!e.defaultPrevented);
    e.preventDefault();
  };
  document.addEventListener("click", record);
  fireEvent.click(screen.getByRole("link", { name: "Blogs" }), { ctrlKey: true });
  fireEvent.click(screen.getByRole("link", { name: "Review" }));
  document.removeEventListener("click", record);
  expect(leftToBrowser).toEqual([true, true]);
  expect(where()).toBe("/");
});

test("the page's own onClick runs first and can stop the navigation", () => {
  let clicked = 0;
  renderAt(
    "/",
    <Link
      to="/blogs"
      onClick={(e) => {
        clicked += 1;
        e.preventDefault();
      }}
    >
      Blogs
    </Link>,
  );
  fireEvent.click(screen.getByRole("link", { name: "Blogs" }));
  expect(clicked).toBe(1);
  expect(where()).toBe("/");
});

test("a link to a query alone keeps the path", () => {
  renderAt("/allproducts?page=2", <Link to="?category=brakes">Brakes</Link>);
  const link = screen.getByRole("link", { name: "Brakes" });
  expect(link.getAttribute("href")).toBe("/allproducts?category=brakes");
  fireEvent.click(link);
  expect(where()).toBe("/allproducts?category=brakes");
});

test("a nav link is active on its path and the paths below it, unless `end`", () => {
  renderAt(
    "/dashboard/myitems",
    <>
      <NavLink to="/dashboard" className={({ isActive }) => (isActive ? "on" : "off")}>
        Dashboard
      </NavLink>
      <NavLink to="/dashboard" end className={({ isActive }) => (isActive ? "on" : "off")}>
        Profile
      </NavLink>
      <NavLink to="/DASHBOARD/myitems">My items</NavLink>
      <NavLink to="/dash">Dash</NavLink>
    </>,
  );
  const dashboard = screen.getByRole("link", { name: "Dashboard" });
  expect(dashboard.className).toBe("on");
  expect(dashboard.getAttribute("aria-current")).toBe("page");
  const profile = screen.getByRole("link", { name: "Profile" });
  expect(profile.className).toBe("off");
  expect(profile.hasAttribute("aria-current")).toBe(false);
  expect(screen.getByRole("link", { name: "My items" }).getAttribute("aria-current")).toBe("page");
  expect(screen.getByRole("link", { name: "Dash" }).hasAttribute("aria-current")).toBe(false);
});

test("the home link is active on / only", () => {
  renderAt("/blogs", <NavLink to="/">Home</NavLink>);
  expect(screen.getByRole("link", { name: "Home" }).hasAttribute("aria-current")).toBe(false);
});
