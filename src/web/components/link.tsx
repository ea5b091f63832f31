import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from "react";
import { useHref, useLinkClickHandler, useLocation, useResolvedPath, type To } from "react-router";

// The app's links, in place of React Router's <Link> and <NavLink>. Theirs also serve framework
// mode (route discovery, <link rel="prefetch"> for a `prefetch` prop, view transitions), and that
// code came along on every page though this app uses none of it: about 2.5 KB gzip of the landing
// page's JavaScript. These do what the app needs with the router's own hooks: the same href, the
// same client-side navigation on a plain click (a modified click, or another target, is left to
// the browser), and NavLink's active state and aria-current. Code is loaded ahead by
// app/preload-linked-pages.ts when a link is hovered, focused or touched.
// (eslint.config.js keeps react-router's Link and NavLink out of the app.)

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">;

export interface LinkProps extends AnchorProps {
  /** A path, or a relative one such as "?page=2" (resolved against the current route). */
  to: To;
}

/** A link that navigates inside the app. */
export function Link({ to, onClick, target, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} href={href} target={target} onClick={handleClick} />;
}

export interface NavLinkProps extends Omit<LinkProps, "className" | "children"> {
  /** Active only on this exact path, not on the paths below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string | undefined);
  children?: ReactNode;
}

/** A link that knows whether it leads to the current page: `aria-current="page"` when it does. */
export function NavLink({
  to,
  end = false,
  className,
  "aria-current": ariaCurrent = "page",
  ...rest
}: NavLinkProps) {
  const isActive = useIsActive(to, end);
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? ariaCurrent : undefined}
      className={typeof className === "function" ? className({ isActive }) : className}
    />
  );
}

/** React Router's rule: the same path (case aside), or a path below it unless `end`. */
function useIsActive(to: To, end: boolean): boolean {
  const target = useResolvedPath(to).pathname.toLowerCase();
  const current = useLocation().pathname.toLowerCase();
  if (current === target) return true;
  if (end) return false;
  const endSlash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  return current.startsWith(target) && current.charAt(endSlash) === "/";
}
