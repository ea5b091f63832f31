import { useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router";
import { NavLink } from "../../components/link";
import { usePrerendering } from "../../lib/prerendering";
import { useSession } from "../../lib/session";
import { paths } from "#contract/paths";
import { useMyCompany } from "../../features/companies/api/companies";

const customerLinks = [
  { to: paths.myItems, label: "My Items" },
  { to: paths.myLists, label: "My Lists" },
  { to: paths.quickOrder, label: "Quick order" },
  { to: paths.quotes, label: "Quotes" },
  { to: paths.warranty, label: "Warranty claims" },
  { to: paths.addReview, label: "Add a Review" },
];
const adminLinks = [
  { to: paths.allUsers, label: "All Users" },
  { to: paths.addProduct, label: "Add Product" },
  { to: paths.manageProducts, label: "Manage All Products" },
  { to: paths.vehicles, label: "Vehicles" },
  { to: paths.attributes, label: "Attributes" },
  { to: paths.imports, label: "Imports" },
  { to: paths.manageOrders, label: "Manage All orders" },
  { to: paths.shippingZones, label: "Shipping Zones" },
  { to: paths.locations, label: "Locations" },
  { to: paths.incomingSupply, label: "Incoming supply" },
  { to: paths.backorders, label: "Backorders" },
  { to: paths.taxRates, label: "Tax Rates" },
  { to: paths.auditLog, label: "Audit Log" },
  { to: paths.companies, label: "Companies" },
  { to: paths.priceLists, label: "Price lists" },
  { to: paths.customerGroups, label: "Customer groups" },
  { to: paths.discountCodes, label: "Discount codes" },
  { to: paths.markets, label: "Markets" },
  { to: paths.approvals, label: "Approvals" },
  { to: paths.quotes, label: "Quotes" },
  { to: paths.invoices, label: "Invoices" },
  { to: paths.returns, label: "Returns" },
  { to: paths.warranty, label: "Warranty claims" },
  { to: paths.apiKeys, label: "API keys" },
  { to: paths.webhooks, label: "Webhooks" },
];

/** The dashboard: a sidebar (SPEC section 2) beside the page; on phones a row of tabs on top. */
export function DashboardLayout() {
  const { data: user } = useSession();
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // A company's members get its page (owners manage the members there).
  const company = useMyCompany(user?.role === "user").data?.company;
  const inCompany = Boolean(company);
  // On phones the tabs scroll sideways: keep the current one in view.
  useEffect(() => {
    nav.current
      ?.querySelector(".menu-active")
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);
  // At build time (the dashboard's shell HTML) nobody is signed in: placeholders stand in.
  if (usePrerendering()) return <DashboardSkeleton />;
  const links = [
    { to: paths.dashboard, label: "My Profile" },
    ...(user?.role === "admin" ? adminLinks : customerLinks),
    ...(inCompany ? [{ to: paths.myCompany, label: "My company" }] : []),
    // Owners decide their buyers' orders over a spending limit.
    ...(company?.role === "owner" ? [{ to: paths.approvals, label: "Approvals" }] : []),
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row">
      <aside className="md:w-60 md:shrink-0">
        <h2 className="mb-2 px-4 text-sm font-semibold tracking-wide text-base-content/75 uppercase max-md:sr-only">
          Dashboard
        </h2>
        <nav aria-label="Dashboard" ref={nav}>
          {/* On phones, one scrollable row of tabs, so the page starts near the top. */}
          <ul className="menu menu-horizontal w-full flex-nowrap overflow-x-auto rounded-box bg-base-200 md:menu-vertical md:overflow-x-visible">
            {links.map((l) => (
              <li key={l.to} className="shrink-0">
                <NavLink
                  to={l.to}
                  end
                  className={({ isActive }) => (isActive ? "menu-active" : "")}
                >
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <section className="min-w-0 flex-1">
        <Outlet />
      </section>
    </div>
  );
}

/** The dashboard's frame while the app starts: the sidebar and a page, as grey blocks. */
function DashboardSkeleton() {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row" aria-hidden="true">
      <div className="flex flex-col gap-2 md:w-60 md:shrink-0">
        <div className="mx-4 h-5 w-24 rounded bg-base-200" />
        <div className="h-40 rounded-box bg-base-200" />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-4">
        <div className="h-8 w-1/2 rounded bg-base-200" />
        <div className="h-64 rounded-box bg-base-200" />
      </div>
    </div>
  );
}
