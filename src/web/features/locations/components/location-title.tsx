import type { ReactNode } from "react";
import type { Location } from "#contract/locations";

/**
 * A location as a table row's title: its code, its name and the Home and Inactive badges; a
 * table that says more of it adds its own badges after them.
 */
export function LocationTitle({
  location: l,
  children,
}: {
  location: Pick<Location, "code" | "name" | "isHome" | "active">;
  children?: ReactNode;
}) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className="font-mono">{l.code}</span>
      <span>{l.name}</span>
      {l.isHome && <span className="badge badge-primary badge-sm">Home</span>}
      {!l.active && <span className="badge badge-ghost badge-sm">Inactive</span>}
      {children}
    </span>
  );
}
