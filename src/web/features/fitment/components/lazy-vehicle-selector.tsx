import { useCallback, useEffect, useState, type ComponentProps } from "react";
import { usePrerendering } from "../../../lib/prerendering";
import { whenVisitorActs } from "../../../lib/when-visitor-acts";
import type { VehicleSelector } from "./vehicle-selector";

type Props = ComponentProps<typeof VehicleSelector>;

/** Once loaded, later visits of the page render it at once (Back keeps its scroll position). */
let loadedSelector: typeof VehicleSelector | undefined;

/**
 * The vehicle selector for the landing page. Its code (and its requests) load on the visitor's
 * first sign of life on the page — a pointer move, touch, key, scroll — or when its button is
 * focused or pressed, so the landing page's first load stays within its JavaScript budget. Until
 * then a box of its size holds its place (pre-rendered, so nothing shifts).
 */
export function LazyVehicleSelector(props: Props) {
  const prerendering = usePrerendering();
  const [Loaded, setLoaded] = useState<typeof VehicleSelector | undefined>(() => loadedSelector);
  const load = useCallback(() => {
    void import("./vehicle-selector").then((m) => {
      loadedSelector = m.VehicleSelector;
      setLoaded(() => m.VehicleSelector);
    });
  }, []);
  useEffect(() => {
    if (Loaded) return;
    return whenVisitorActs(load);
  }, [Loaded, load]);
  if (Loaded) return <Loaded {...props} />;
  return (
    <div
      data-testid="vehicle-selector-placeholder"
      className="flex min-h-[16.125rem] items-center justify-center rounded-box border border-base-300 bg-base-100 md:min-h-[8.125rem]"
    >
      <button
        type="button"
        className="btn btn-ghost"
        disabled={prerendering}
        onFocus={load}
        onClick={load}
      >
        Choose your vehicle
      </button>
    </div>
  );
}
