import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Link, NavLink } from "../components/link";
import { Spinner } from "../components/spinner";
import { useSession, useSignOut } from "../lib/session";
import { paths } from "#contract/paths";
import { usePrerendering } from "../lib/prerendering";
import { CartLink } from "../features/cart/components/cart-link";
import { MarketPicker } from "../features/pricing/components/market-picker";

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "menu-active" : "");

/** The navbar's links; the phone menu leaves out the cart, which the phone header shows itself. */
function NavLinks({ cart = true }: { cart?: boolean }) {
  const { data: user, isPending } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const links = [
    { to: paths.home, label: "Home" },
    { to: paths.allProducts, label: "Parts" },
    { to: paths.blogs, label: "Blogs" },
    { to: paths.portfolio, label: "My PortFolio" },
    { to: paths.review, label: "Review" },
    ...(user && user.role !== "admin" ? [{ to: paths.quickOrder, label: "Quick order" }] : []),
    ...(user ? [{ to: paths.dashboard, label: "Dashboard" }] : []),
  ];
  return (
    <>
      {links.map((l) => (
        <li key={l.to}>
          <NavLink to={l.to} end={l.to === paths.home} className={linkClass}>
            {l.label}
          </NavLink>
        </li>
      ))}
      <MarketPicker />
      {cart && <CartLink />}
      {isPending ? (
        // As wide as the Login link that usually replaces it, so the links beside it stay put.
        <li className="relative">
          <span className="invisible" aria-hidden="true">
            Login
          </span>
          <span className="absolute inset-0 flex items-center justify-center">
            <Spinner label="Checking your session" />
          </span>
        </li>
      ) : user ? (
        <>
          <li
            className="menu-title max-w-48 truncate px-2.5 py-2 text-base-content"
            title={user.name}
            data-testid="user-name"
          >
            {user.name}
          </li>
          <li>
            <button
              type="button"
              onClick={async () => {
                await signOut();
                navigate(paths.home);
              }}
            >
              Sign Out
            </button>
          </li>
        </>
      ) : (
        <li>
          <NavLink to={paths.login} className={linkClass}>
            Login
          </NavLink>
        </li>
      )}
    </>
  );
}

export function Navbar() {
  const [open, setOpen] = useState(false);
  const prerendering = usePrerendering();
  const header = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  // The phone menu closes on Escape (focus back on its button) and on a tap outside the header.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!header.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <header
      ref={header}
      className="sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur"
    >
      <nav aria-label="Main" className="navbar mx-auto max-w-6xl px-4">
        <div className="flex-1">
          <Link
            to={paths.home}
            className="flex shrink-0 items-center gap-2 text-xl font-bold whitespace-nowrap text-primary"
          >
            <img src="/favicon.svg" alt="" width="28" height="28" />
            PartsWorks
          </Link>
        </div>
        {/* One line at 1366 wide, signed in with the market picker: no wrap, items a little closer. */}
        <ul className="menu menu-horizontal hidden flex-nowrap items-center gap-0 px-1 whitespace-nowrap md:flex [&>li>a]:px-2.5 [&>li>button]:px-2.5">
          <NavLinks />
        </ul>
        <ul className="menu menu-horizontal px-1 md:hidden">
          <CartLink />
        </ul>
        <button
          ref={toggle}
          type="button"
          className="btn btn-square btn-ghost md:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? "Close menu" : "Open menu"}
          disabled={prerendering}
          onClick={() => setOpen((o) => !o)}
        >
          <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
            <path
              d={open ? "M6 6l12 12M18 6L6 18" : "M4 7h16M4 12h16M4 17h16"}
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </nav>
      {open && (
        <ul
          id="mobile-menu"
          className="menu w-full border-t border-base-300 px-4 pb-3 md:hidden"
          onClick={(e) => {
            if ((e.target as HTMLElement).closest("a, button")) setOpen(false);
          }}
        >
          <NavLinks cart={false} />
        </ul>
      )}
    </header>
  );
}
