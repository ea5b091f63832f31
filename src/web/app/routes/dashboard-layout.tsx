import { NavLink, Outlet } from "react-router";
import { useSession } from "../../lib/session";
import { paths } from "#contract/paths";

const customerLinks = [
  { to: paths.myItems, label: "My Items" },
  { to: paths.addReview, label: "Add a Review" },
];
const adminLinks = [
  { to: paths.allUsers, label: "All Users" },
  { to: paths.addProduct, label: "Add Product" },
  { to: paths.manageProducts, label: "Manage All Products" },
  { to: paths.manageOrders, label: "Manage All orders" },
];

/** The dashboard: a sidebar (SPEC section 2) beside the page; on phones the sidebar sits on top. */
export function DashboardLayout() {
  const { data: user } = useSession();
  const links = [
    { to: paths.dashboard, label: "My Profile" },
    ...(user?.role === "admin" ? adminLinks : customerLinks),
  ];
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row">
      <aside className="md:w-60 md:shrink-0">
        <h2 className="mb-2 px-4 text-sm font-semibold uppercase tracking-wide text-base-content/70">
          Dashboard
        </h2>
        <nav aria-label="Dashboard">
          <ul className="menu w-full rounded-box bg-base-200">
            {links.map((l) => (
              <li key={l.to}>
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
