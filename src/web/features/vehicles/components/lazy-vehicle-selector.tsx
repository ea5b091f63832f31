import { useEffect, useRef, useState, type ComponentProps } from "react";
import type { VehicleSelector } from "./vehicle-selector";

type Props = ComponentProps<typeof VehicleSelector>;

/** Once loaded, later visits of the page render it at once (Back keeps its scroll position). */
let loadedSelector: typeof VehicleSelector | undefined;

/**
 * The vehicle selector for the landing page, whose first screen it is not on: its code (and its
 * requests) load when it comes near the screen, so the landing page's JavaScript stays within
 * budget. Until then a box of its size holds its place (pre-rendered, so nothing shifts).
 */
export function LazyVehicleSelector(props: Props) {
  const [Loaded, setLoaded] = useState<typeof VehicleSelector | undefined>(() => loadedSelector);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = placeholder.current;
    if (!box || Loaded) return;
    let cancelled = false;
    const load = () => {
      observer.disconnect();
      void import("./vehicle-selector").then((m) => {
        loadedSelector = m.VehicleSelector;
        if (!cancelled) setLoaded(() => m.VehicleSelector);
      });
    };
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && load(),
      { rootMargin: "200px" },
    );
    observer.observe(box);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [Loaded]);
  if (Loaded) return <Loaded {...props} />;
  return (
    <div
      ref={placeholder}
      data-testid="vehicle-selector-placeholder"
      aria-busy="true"
      className="min-h-[16.125rem] rounded-box border border-base-300 bg-base-100 md:min-h-[8.125rem]"
    />
  );
}
