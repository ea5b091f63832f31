import { beforeEach, expect, test } from "vitest";
import {
  fitDetailWords,
  fitWords,
  loadRememberedVehicle,
  rememberVehicle,
  vehicleFromParams,
  vehicleFromStored,
  vehicleToParams,
} from "./vehicle-choice";

const from = (query: string) => vehicleFromParams(new URLSearchParams(query));

test("a vehicle in the URL needs year, make and model; the engine is optional", () => {
  expect(from("year=2016&make=3&model=7")).toEqual({ year: 2016, make: 3, model: 7 });
  expect(from("year=2016&make=3&model=7&engine=9")).toEqual({
    year: 2016,
    make: 3,
    model: 7,
    engine: 9,
  });
  expect(from("year=2016&make=3")).toBeUndefined();
  // Hand-typed nonsense is no vehicle (the list then shows every part), never a request error.
  expect(from("year=2016&make=abc&model=7")).toBeUndefined();
  expect(from("year=2016&make=-3&model=7")).toBeUndefined();
  expect(from("year=2016&make=99999999999&model=7")).toBeUndefined();
  expect(from("year=2016&make=3&model=7&engine=x")).toEqual({ year: 2016, make: 3, model: 7 });
});

test("a vehicle becomes URL parameters and back; none clears them", () => {
  const v = { year: 2016, make: 3, model: 7, engine: 9 };
  expect(
    from(new URLSearchParams(vehicleToParams(v) as Record<string, string>).toString()),
  ).toEqual(v);
  expect(vehicleToParams(undefined)).toEqual({
    year: undefined,
    make: undefined,
    model: undefined,
    engine: undefined,
  });
});

beforeEach(() => localStorage.clear());

test("the visitor's vehicle is remembered in the browser, and forgotten on clear", () => {
  expect(loadRememberedVehicle()).toBeUndefined();
  rememberVehicle({ year: 2016, make: 3, model: 7 });
  expect(loadRememberedVehicle()).toEqual({ year: 2016, make: 3, model: 7 });
  rememberVehicle(undefined);
  expect(loadRememberedVehicle()).toBeUndefined();
  localStorage.setItem("partsworks.vehicle", "{not json");
  expect(loadRememberedVehicle()).toBeUndefined();
});

test("how a part fits, in words", () => {
  const base = { position: null, quantity: 1, note: null, engine: null, submodel: null };
  expect(fitWords(true, "2016 Volkswagen Golf 1.4 TSI")).toBe(
    "Fits your 2016 Volkswagen Golf 1.4 TSI",
  );
  expect(fitWords(false, "2016 Volkswagen Golf")).toBe("Does not fit your 2016 Volkswagen Golf");
  expect(fitDetailWords(base)).toBe("");
  expect(fitDetailWords({ ...base, position: "Rear", quantity: 2 })).toBe("Rear, 2 per vehicle");
  expect(fitDetailWords({ ...base, quantity: 4, engine: "1.4 TSI", note: "with A/C" })).toBe(
    "4 per vehicle; 1.4 TSI engine only; with A/C",
  );
});

test("a cart line's stored vehicle is taken only when well formed", () => {
  expect(vehicleFromStored({ year: 2016, make: 3, model: 7, engine: 9 })).toEqual({
    year: 2016,
    make: 3,
    model: 7,
    engine: 9,
  });
  expect(vehicleFromStored({ year: 2016, make: 3, model: 7, label: "F40" })).toEqual({
    year: 2016,
    make: 3,
    model: 7,
  });
  expect(vehicleFromStored({ year: 2016, make: "3", model: 7 })).toBeUndefined();
  expect(vehicleFromStored({ year: 2016, make: -3, model: 7 })).toBeUndefined();
  expect(vehicleFromStored(null)).toBeUndefined();
  expect(vehicleFromStored("2016 Golf")).toBeUndefined();
});
