import { z } from "zod";
import { phoneNumberSchema } from "./phone";
import { shortText, text } from "./text";

/**
 * Structured delivery addresses (the address book in My Info, checkout, the cart's estimate).
 * One set of rules for the browser and the server: countries, regions and postal codes.
 */

/** ISO 3166-1 alpha-2 codes of today's countries and territories. */
export const COUNTRY_CODES: readonly string[] = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ " +
  "BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM " +
  "DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS " +
  "GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN " +
  "KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ " +
  "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM " +
  "PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV " +
  "SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI " +
  "VN VU WF WS YE YT ZA ZM ZW"
).split(" ");
const countrySet = new Set(COUNTRY_CODES);

let displayNames: Intl.DisplayNames | undefined;
/** A country's English name ("DE" → "Germany"); the code itself where the runtime lacks names. */
export function countryName(code: string): string {
  displayNames ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
  return displayNames.of(code) ?? code;
}

/** US states, DC, territories and military post codes (the region of a US address). */
export const US_STATES: readonly string[] = (
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH " +
  "NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI AA AE AP"
).split(" ");
/** Canadian provinces and territories. */
export const CA_PROVINCES: readonly string[] = "AB BC MB NB NL NS NT NU ON PE QC SK YT".split(" ");

/** Countries whose region is a code from a list (and required). */
const REGION_CODES: Record<string, readonly string[]> = { US: US_STATES, CA: CA_PROVINCES };

interface PostalRule {
  pattern: RegExp;
  example: string;
  /** The code as stored, from what was typed (upper-case, one space where the country puts it). */
  normalize: (typed: string) => string;
}
const upper = (s: string) => s.toUpperCase().replace(/\s+/g, " ").trim();
const spaceBeforeLast3 = (s: string) => {
  const bare = s.toUpperCase().replace(/\s+/g, "");
  return `${bare.slice(0, -3)} ${bare.slice(-3)}`;
};

/** Postal code formats of the countries we check; others take any 2-12 letters and digits. */
export const POSTAL_RULES: Record<string, PostalRule> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, example: "94103 or 94103-1234", normalize: upper },
  CA: {
    pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d$/,
    example: "K1A 0B1",
    normalize: spaceBeforeLast3,
  },
  GB: {
    pattern: /^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/,
    example: "SW1A 1AA",
    normalize: spaceBeforeLast3,
  },
  DE: { pattern: /^\d{5}$/, example: "10115", normalize: upper },
  FR: { pattern: /^\d{5}$/, example: "75001", normalize: upper },
  NL: {
    pattern: /^\d{4} [A-Z]{2}$/,
    example: "1012 AB",
    normalize: (s) => {
      const bare = s.toUpperCase().replace(/\s+/g, "");
      return `${bare.slice(0, 4)} ${bare.slice(4)}`;
    },
  },
};
const ANY_POSTAL = /^[A-Z0-9][A-Z0-9 -]{0,10}[A-Z0-9]$/;

export const addressMessages = {
  country: "Choose a country",
  postalRequired: "Postal code is Required",
  postal: (country: string, example: string) =>
    `Enter a ${countryName(country)} postal code, like ${example}`,
  postalAny: "Enter a postal code of 2 to 12 letters and digits",
  regionRequired: (country: string) =>
    country === "US" ? "Choose a state" : "Choose a province or territory",
  regionCode: (country: string) =>
    country === "US"
      ? "Enter a US state as its two-letter code, like CA"
      : "Enter a Canadian province as its two-letter code, like ON",
  notFound: "Address not found",
  tooMany: (max: number) => `An address book holds at most ${max} addresses; remove one first`,
} as const;

export const MAX_ADDRESSES = 20;

/** The postal code as stored, or the message saying what is wrong with it. */
export function checkPostalCode(
  country: string,
  typed: string,
): { ok: true; value: string } | { ok: false; message: string } {
  const trimmed = typed.trim();
  if (trimmed === "") return { ok: false, message: addressMessages.postalRequired };
  const rule = POSTAL_RULES[country];
  if (rule) {
    const value = rule.normalize(trimmed);
    return rule.pattern.test(value)
      ? { ok: true, value }
      : { ok: false, message: addressMessages.postal(country, rule.example) };
  }
  const value = upper(trimmed);
  return ANY_POSTAL.test(value)
    ? { ok: true, value }
    : { ok: false, message: addressMessages.postalAny };
}

/** The region as stored: a code upper-cased where the country uses codes, else as typed. */
export function normalizeRegion(country: string, typed: string): string {
  const trimmed = typed.trim().replace(/\s+/g, " ");
  return REGION_CODES[country] ? trimmed.toUpperCase() : trimmed;
}

const countrySchema = text({ message: addressMessages.country })
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => countrySet.has(s), addressMessages.country);

const line = (required: string | null, max: number) =>
  required
    ? text({ message: required })
        .trim()
        .min(1, required)
        .max(max, `Must be ${max} characters or shorter`)
    : shortText(max).default("");

/** A country and postal code, with the region where the country needs one; normalised. */
function refineArea<T extends { country: string; postalCode: string; region: string }>(
  value: T,
  ctx: z.RefinementCtx,
): T {
  const postal = checkPostalCode(value.country, value.postalCode);
  if (!postal.ok) ctx.addIssue({ code: "custom", path: ["postalCode"], message: postal.message });
  const region = normalizeRegion(value.country, value.region);
  const codes = REGION_CODES[value.country];
  if (codes && region === "") {
    ctx.addIssue({
      code: "custom",
      path: ["region"],
      message: addressMessages.regionRequired(value.country),
    });
  } else if (codes && !codes.includes(region)) {
    ctx.addIssue({
      code: "custom",
      path: ["region"],
      message: addressMessages.regionCode(value.country),
    });
  }
  return { ...value, postalCode: postal.ok ? postal.value : value.postalCode, region };
}

/** The fields of an address as typed (the address book's and a company's ship-to addresses). */
const addressFields = z.object({
  name: line("Name is Required", 80),
  company: line(null, 80),
  line1: line("Address line 1 is Required", 100),
  line2: line(null, 100),
  city: line("City is Required", 60),
  region: line(null, 60),
  postalCode: text({ message: addressMessages.postalRequired }).max(
    20,
    "Must be 20 characters or shorter",
  ),
  country: countrySchema,
  phone: phoneNumberSchema,
});

/** What a customer types for an address in the address book (or at checkout). */
export const addressInputSchema = addressFields
  .extend({
    /** Make this the default address (the first address always is). */
    isDefault: z.boolean().default(false),
  })
  .transform(refineArea);

/**
 * A company's ship-to address (docs/companies.md): the same fields and rules as the
 * address book's, without a default.
 */
export const companyAddressInputSchema = addressFields.transform(refineArea);
export type CompanyAddressInput = z.infer<typeof companyAddressInputSchema>;
export type AddressInput = z.infer<typeof addressInputSchema>;
export type AddressInputDraft = z.input<typeof addressInputSchema>;

/** An address book entry's fields as it keeps them (a change is checked by `addressFields`). */
const storedAddressFields = {
  name: z.string(),
  company: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
  isDefault: z.boolean(),
};

/** PATCH: any of the fields; the whole address is checked again after the change. */
export const addressPatchSchema = z.object(storedAddressFields).partial().strict();
export type AddressPatch = z.infer<typeof addressPatchSchema>;

export const addressSchema = z.object({
  id: z.uuid(),
  ...storedAddressFields,
  /** The address as one line of text: what an order's `Address` holds. */
  formatted: z.string(),
});
export type Address = z.infer<typeof addressSchema>;
export const addressBookSchema = z.array(addressSchema);

/** A place to estimate delivery to, before there is an address: a country and a postal code. */
export const destinationEstimateSchema = z
  .object({
    country: countrySchema,
    postalCode: text({ message: addressMessages.postalRequired }).max(
      20,
      "Must be 20 characters or shorter",
    ),
  })
  .transform((value, ctx) => {
    const postal = checkPostalCode(value.country, value.postalCode);
    if (!postal.ok) {
      ctx.addIssue({ code: "custom", path: ["postalCode"], message: postal.message });
      return value;
    }
    return { country: value.country, postalCode: postal.value };
  });
export type DestinationEstimate = z.infer<typeof destinationEstimateSchema>;

type Formattable = Pick<
  Address,
  "name" | "company" | "line1" | "line2" | "city" | "region" | "postalCode" | "country"
>;

/**
 * The address as one line (the order's `Address` field): "Jane Doe, Acme, 1 Main St, Apt 2,
 * Springfield, IL 62701, United States". North American style (city, region postal) for US and
 * CA; British (city postal) for GB; elsewhere "postal city, region".
 */
export function formatAddress(a: Formattable): string {
  const place =
    a.country === "US" || a.country === "CA"
      ? `${a.city}, ${a.region} ${a.postalCode}`
      : a.country === "GB"
        ? [`${a.city} ${a.postalCode}`, a.region].filter(Boolean).join(", ")
        : [`${a.postalCode} ${a.city}`, a.region].filter(Boolean).join(", ");
  return [a.name, a.company, a.line1, a.line2, place, countryName(a.country)]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(", ");
}

/**
 * The region a postal code lies in, where the code tells (US ZIP codes by their first three
 * digits, Canadian ones by their first letter): a visitor's estimate gives only a country and a
 * postal code, and taxes differ by state. Null where it does not tell.
 */
export function regionOfPostalCode(country: string, postalCode: string): string | null {
  if (country === "CA") return CA_BY_FIRST_LETTER[postalCode[0] ?? ""] ?? null;
  if (country !== "US") return null;
  const zip3 = Number(postalCode.slice(0, 3));
  if (!Number.isInteger(zip3)) return null;
  for (const [from, to, state] of US_ZIP3) if (zip3 >= from && zip3 <= to) return state;
  return null;
}

// prettier-ignore
const CA_BY_FIRST_LETTER: Record<string, string> = {
  A: "NL", B: "NS", C: "PE", E: "NB", G: "QC", H: "QC", J: "QC", K: "ON", L: "ON", M: "ON",
  N: "ON", P: "ON", R: "MB", S: "SK", T: "AB", V: "BC", X: "NT", Y: "YT",
};

/** First three ZIP digits → state (USPS ranges; a few exceptions listed before their range). */
// prettier-ignore
const US_ZIP3: [number, number, string][] = [
  [5, 5, "NY"], [6, 7, "PR"], [8, 8, "VI"], [9, 9, "PR"], [10, 27, "MA"], [28, 29, "RI"],
  [30, 38, "NH"], [39, 49, "ME"], [55, 55, "MA"], [50, 59, "VT"], [63, 63, "NY"], [60, 69, "CT"],
  [70, 89, "NJ"], [90, 99, "AE"], [100, 149, "NY"], [150, 196, "PA"], [197, 199, "DE"],
  [201, 201, "VA"], [200, 205, "DC"], [206, 219, "MD"], [220, 246, "VA"], [247, 268, "WV"],
  [270, 289, "NC"], [290, 299, "SC"], [300, 319, "GA"], [320, 349, "FL"], [350, 369, "AL"],
  [370, 385, "TN"], [386, 397, "MS"], [398, 399, "GA"], [400, 427, "KY"], [430, 459, "OH"],
  [460, 479, "IN"], [480, 499, "MI"], [500, 528, "IA"], [530, 549, "WI"], [550, 567, "MN"],
  [569, 569, "DC"], [570, 577, "SD"], [580, 588, "ND"], [590, 599, "MT"], [600, 629, "IL"],
  [630, 658, "MO"], [660, 679, "KS"], [680, 693, "NE"], [700, 715, "LA"], [716, 729, "AR"],
  [733, 733, "TX"], [730, 749, "OK"], [750, 799, "TX"], [800, 816, "CO"], [820, 831, "WY"],
  [832, 838, "ID"], [840, 847, "UT"], [850, 865, "AZ"], [870, 884, "NM"], [885, 885, "TX"],
  [889, 898, "NV"], [900, 961, "CA"], [962, 966, "AP"], [967, 968, "HI"], [969, 969, "GU"],
  [970, 979, "OR"], [980, 994, "WA"], [995, 999, "AK"],
];
