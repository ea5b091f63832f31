import { VIN_LENGTH } from "../../contract/vehicles";

// The VIN check and what a VIN tells offline. Every market (ISO 3779): 17 characters without I,
// O or Q, the manufacturer in the first three (the WMI), whose first character names the region
// (ISO 3780). Only North America (49 CFR 565, WMIs starting 1–5) requires a check digit in
// position 9 and the model year in position 10; elsewhere position 9 is free and position 10 is
// the year only for makers who choose so. Nothing is guessed: what the VIN or our small table
// does not tell is said plainly.

const ALLOWED = /^[A-HJ-NPR-Z0-9]+$/;

/** Letters as numbers for the check digit. */
const transliteration: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
}; // prettier-ignore
const weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** Model-year codes (position 10) in order from 1980 (A) to 2009 (9); then again from 2010. */
const YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789";
/** The 17-character VIN began with the 1981 models: an A (1980) is always 2010. */
const FIRST_MODEL_YEAR = 1981;

/**
 * Makers of our table who write the model year in position 10 outside North America as well (the
 * Volkswagen group's VINs do, in every market); for any other maker there it is not the year.
 */
const YEAR_IN_POSITION_10_EVERYWHERE = new Set(["Volkswagen", "Audi", "Skoda"]);

/**
 * World Manufacturer Identifiers we know, written for this store from the makers' public VIN
 * plates. A WMI not listed is reported as unknown, never guessed from its country code.
 */
export const wmiTable: Record<string, string> = {
  WVW: "Volkswagen",
  WV1: "Volkswagen",
  WV2: "Volkswagen",
  "3VW": "Volkswagen",
  "1VW": "Volkswagen",
  WAU: "Audi",
  WA1: "Audi",
  TMB: "Skoda",
  WBA: "BMW",
  WBS: "BMW",
  "5UX": "BMW",
  WDD: "Mercedes-Benz",
  WDB: "Mercedes-Benz",
  JTD: "Toyota",
  JTE: "Toyota",
  JTN: "Toyota",
  JTM: "Toyota",
  "2T1": "Toyota",
  "4T1": "Toyota",
  "5YJ": "Tesla",
  "1FA": "Ford",
  "1FT": "Ford",
  "1FM": "Ford",
  WF0: "Ford",
  "1HG": "Honda",
  "2HG": "Honda",
  JHM: "Honda",
  "5J6": "Honda",
  SHH: "Honda",
  VF1: "Renault",
  KMH: "Hyundai",
  TMA: "Hyundai",
  "5NP": "Hyundai",
  YV1: "Volvo",
  YV4: "Volvo",
  KNA: "Kia",
  JN1: "Nissan",
  "1G1": "Chevrolet",
};

export type VinCheck =
  | { ok: false; message: string }
  | {
      ok: true;
      vin: string;
      wmi: string;
      manufacturer: string | null;
      region: string | null;
      year: number | null;
      notes: string[];
    };

export function checkDigitOf(vin: string): string {
  let sum = 0;
  for (let i = 0; i < VIN_LENGTH; i++) {
    const c = vin[i]!;
    const value = /\d/.test(c) ? Number(c) : transliteration[c]!;
    sum += value * weights[i]!;
  }
  const r = sum % 11;
  return r === 10 ? "X" : String(r);
}

export function checkVin(input: string, now = new Date()): VinCheck {
  const vin = input.trim().toUpperCase();
  if (vin.length !== VIN_LENGTH) {
    return {
      ok: false,
      message: `A VIN has ${VIN_LENGTH} characters; this one has ${vin.length}`,
    };
  }
  if (!ALLOWED.test(vin)) {
    const bad = [...new Set([...vin].filter((c) => !/[A-HJ-NPR-Z0-9]/.test(c)))].join(" ");
    return {
      ok: false,
      message: `A VIN has only digits and the letters A–Z without I, O and Q; this one has ${bad}`,
    };
  }
  const northAmerican = /^[1-5]/.test(vin);
  const expected = checkDigitOf(vin);
  if (northAmerican && vin[8] !== expected) {
    return {
      ok: false,
      message: `The check digit (9th character) is ${vin[8]} but should be ${expected}: the VIN is mistyped`,
    };
  }
  const notes: string[] = [];
  const wmi = vin.slice(0, 3);
  const manufacturer = wmiTable[wmi] ?? null;
  notes.push(
    manufacturer
      ? `Manufacturer ${manufacturer} (from ${wmi})`
      : `We cannot tell the manufacturer: ${wmi} is not in our table`,
  );
  const yearCoded =
    northAmerican || (manufacturer !== null && YEAR_IN_POSITION_10_EVERYWHERE.has(manufacturer));
  const year = !yearCoded
    ? null
    : northAmerican
      ? northAmericanModelYear(vin)
      : latestModelYear(vin, now);
  notes.push(yearNote(vin, year, yearCoded, northAmerican));
  if (!northAmerican && vin[8] !== expected) {
    notes.push(
      `The 9th character ${vin[8]} is not checked: outside North America a VIN need not carry a check digit, so a mistyped one cannot be caught`,
    );
  }
  const region = regionOf(vin[0]!);
  notes.push(
    region
      ? `Region ${region} (1st character ${vin[0]})`
      : `We cannot tell the region: the 1st character ${vin[0]} is not a region code`,
  );
  return { ok: true, vin, wmi, manufacturer, region, year, notes };
}

function yearNote(
  vin: string,
  year: number | null,
  yearCoded: boolean,
  northAmerican: boolean,
): string {
  const code = vin[9];
  if (year === null) {
    return yearCoded
      ? `We cannot tell the model year: the 10th character ${code} is not a year code`
      : "We cannot tell the model year: outside North America the 10th character is the year only for some makers";
  }
  // Outside North America position 7 is free (often a filler Z), so the 30-year cycle is ours.
  if (!northAmerican && year - 30 >= FIRST_MODEL_YEAR) {
    return `Model year ${year} (10th character ${code}), or ${year - 30} for an older car: outside North America the 7th character does not tell the 30-year cycle`;
  }
  return `Model year ${year} (10th character ${code})`;
}

/** ISO 3780 gives each region of the world a range of first characters. */
function regionOf(first: string): string | null {
  if (/[A-H]/.test(first)) return "Africa";
  if (/[J-R]/.test(first)) return "Asia";
  if (/[S-Z]/.test(first)) return "Europe";
  if (/[1-5]/.test(first)) return "North America";
  if (/[67]/.test(first)) return "Oceania";
  if (/[89]/.test(first)) return "South America";
  return null;
}

/**
 * Position 10 repeats every 30 years; in North America, for cars and light trucks, position 7
 * tells the cycle: a digit for 1980–2009, a letter for 2010–2039.
 */
function northAmericanModelYear(vin: string): number | null {
  const index = YEAR_CODES.indexOf(vin[9]!);
  if (index < 0) return null;
  return (/[A-Z]/.test(vin[6]!) ? 2010 : 1980) + index;
}

/** Where nothing tells the cycle: the latest year of the code that is not after next year's models. */
function latestModelYear(vin: string, now: Date): number | null {
  const index = YEAR_CODES.indexOf(vin[9]!);
  if (index < 0) return null;
  let year = 1980 + index;
  while (year + 30 <= now.getUTCFullYear() + 1) year += 30;
  return year;
}
