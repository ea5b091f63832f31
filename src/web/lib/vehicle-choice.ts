import type { FitmentDetail } from "#contract/vehicles";

// The shopper's vehicle: in the URL (`year`, `make`, `model`, `engine`: ids) so a filtered list
// can be shared, and remembered in this browser so the next visit and the product page know it.
// Shared by the catalog (the list's query, the cards' wording) and the vehicle selector.

export interface VehicleChoice {
  year: number;
  make: number;
  model: number;
  engine?: number;
}

export const VEHICLE_PARAMS = ["year", "make", "model", "engine"] as const;
const STORAGE_KEY = "partsworks.vehicle";

const positive = (value: string | null) => {
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : undefined;
};

/** The vehicle in a URL's query, when year, make and model are all there. */
export function vehicleFromParams(params: URLSearchParams): VehicleChoice | undefined {
  const year = positive(params.get("year"));
  const make = positive(params.get("make"));
  const model = positive(params.get("model"));
  if (year === undefined || make === undefined || model === undefined) return undefined;
  const engine = positive(params.get("engine"));
  return { year, make, model, ...(engine !== undefined && { engine }) };
}

/** URL parameters for a vehicle (undefined ones are removed: no vehicle clears them). */
export function vehicleToParams(v: VehicleChoice | undefined): Record<string, string | undefined> {
  return {
    year: v ? String(v.year) : undefined,
    make: v ? String(v.make) : undefined,
    model: v ? String(v.model) : undefined,
    engine: v?.engine !== undefined ? String(v.engine) : undefined,
  };
}

/** A vehicle kept as JSON in this browser (the remembered one, a cart line's), when well formed. */
export function vehicleFromStored(v: unknown): VehicleChoice | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  return vehicleFromParams(
    new URLSearchParams(
      VEHICLE_PARAMS.filter((k) => typeof o[k] === "number").map((k) => [k, String(o[k])]),
    ),
  );
}

export function loadRememberedVehicle(): VehicleChoice | undefined {
  if (typeof localStorage === "undefined") return undefined;
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    return vehicleFromStored(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** A request body's `vehicle` field: the chosen vehicle's ids, or nothing when none is chosen. */
export const withVehicle = (v: VehicleChoice | undefined): { vehicle?: VehicleChoice } =>
  v ? { vehicle: v } : {};

export function rememberVehicle(v: VehicleChoice | undefined) {
  if (typeof localStorage === "undefined") return;
  try {
    if (v) localStorage.setItem(STORAGE_KEY, JSON.stringify(v));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage full or refused (private mode): the choice lasts for this page only.
  }
}

/** "Front, 2 per vehicle; with A/C; 1.4 TSI only": what narrows a fit, in words. */
export function fitDetailWords(d: FitmentDetail): string {
  return [
    d.position && `${d.position}${d.quantity > 1 ? `, ${d.quantity} per vehicle` : ""}`,
    !d.position && d.quantity > 1 && `${d.quantity} per vehicle`,
    d.engine && `${d.engine} engine only`,
    d.submodel && `${d.submodel} only`,
    d.note,
  ]
    .filter(Boolean)
    .join("; ");
}

/** "Fits your 2016 Volkswagen Golf 1.4 TSI" or "Does not fit your …". */
export const fitWords = (fits: boolean, label: string) =>
  `${fits ? "Fits" : "Does not fit"} your ${label}`;
