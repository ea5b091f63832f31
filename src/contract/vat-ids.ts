/**
 * EU VAT identification numbers: an OFFLINE format check per member state (docs/tax.md).
 * Nothing here asks VIES (the Commission's register): the store's machine cannot reach it, so a
 * well-formed number that was never issued still passes. Shared by the server (which decides) and
 * the browser (which may show the expected form).
 */

/** A member state's VAT number: its prefix (EL for Greece), the body after it, an example. */
interface VatFormat {
  prefix: string;
  body: RegExp;
  /** How the body looks, in words, for the error message. */
  shape: string;
  example: string;
}

/**
 * The 27 member states (ISO 3166-1 alpha-2), each with the form of its VAT number after the prefix
 * (from the Commission's VIES FAQ "VAT number format"; check digits are not verified).
 */
export const EU_VAT_FORMATS: Readonly<Record<string, VatFormat>> = {
  AT: { prefix: "AT", body: /^U\d{8}$/, shape: "U and 8 digits", example: "ATU12345678" },
  BE: { prefix: "BE", body: /^[01]\d{9}$/, shape: "0 or 1 and 9 digits", example: "BE0123456789" },
  BG: { prefix: "BG", body: /^\d{9,10}$/, shape: "9 or 10 digits", example: "BG123456789" },
  CY: {
    prefix: "CY",
    body: /^\d{8}[A-Z]$/,
    shape: "8 digits and a letter",
    example: "CY12345678X",
  },
  CZ: { prefix: "CZ", body: /^\d{8,10}$/, shape: "8 to 10 digits", example: "CZ12345678" },
  DE: { prefix: "DE", body: /^\d{9}$/, shape: "9 digits", example: "DE123456789" },
  DK: { prefix: "DK", body: /^\d{8}$/, shape: "8 digits", example: "DK12345678" },
  EE: { prefix: "EE", body: /^\d{9}$/, shape: "9 digits", example: "EE123456789" },
  ES: {
    prefix: "ES",
    // A letter or digit, 7 digits, a letter or digit; at least one end is a letter.
    body: /^(?:[A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/,
    shape: "9 characters: a letter or digit, 7 digits, a letter or digit (one end a letter)",
    example: "ESX1234567X",
  },
  FI: { prefix: "FI", body: /^\d{8}$/, shape: "8 digits", example: "FI12345678" },
  FR: {
    prefix: "FR",
    body: /^[0-9A-HJ-NP-Z]{2}\d{9}$/,
    shape: "2 letters or digits and 9 digits",
    example: "FR12345678901",
  },
  GR: { prefix: "EL", body: /^\d{9}$/, shape: "9 digits", example: "EL123456789" },
  HR: { prefix: "HR", body: /^\d{11}$/, shape: "11 digits", example: "HR12345678901" },
  HU: { prefix: "HU", body: /^\d{8}$/, shape: "8 digits", example: "HU12345678" },
  IE: {
    prefix: "IE",
    body: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
    shape: "7 digits and 1 or 2 letters (or the old form 1234567X with a letter second)",
    example: "IE1234567T",
  },
  IT: { prefix: "IT", body: /^\d{11}$/, shape: "11 digits", example: "IT12345678901" },
  LT: { prefix: "LT", body: /^(?:\d{9}|\d{12})$/, shape: "9 or 12 digits", example: "LT123456789" },
  LU: { prefix: "LU", body: /^\d{8}$/, shape: "8 digits", example: "LU12345678" },
  LV: { prefix: "LV", body: /^\d{11}$/, shape: "11 digits", example: "LV12345678901" },
  MT: { prefix: "MT", body: /^\d{8}$/, shape: "8 digits", example: "MT12345678" },
  NL: {
    prefix: "NL",
    body: /^\d{9}B\d{2}$/,
    shape: "9 digits, B and 2 digits",
    example: "NL123456789B01",
  },
  PL: { prefix: "PL", body: /^\d{10}$/, shape: "10 digits", example: "PL1234567890" },
  PT: { prefix: "PT", body: /^\d{9}$/, shape: "9 digits", example: "PT123456789" },
  RO: { prefix: "RO", body: /^[1-9]\d{1,9}$/, shape: "2 to 10 digits", example: "RO1234567890" },
  SE: {
    prefix: "SE",
    body: /^\d{10}01$/,
    shape: "12 digits ending in 01",
    example: "SE123456789701",
  },
  SI: { prefix: "SI", body: /^\d{8}$/, shape: "8 digits", example: "SI12345678" },
  SK: { prefix: "SK", body: /^\d{10}$/, shape: "10 digits", example: "SK1234567890" },
};

/** Whether a country (ISO alpha-2) is an EU member state. */
export const isEuCountry = (country: string | null | undefined): boolean =>
  !!country && Object.hasOwn(EU_VAT_FORMATS, country);

/** The member state a VAT prefix names (EL is Greece), or null. */
export function countryOfVatPrefix(prefix: string): string | null {
  const p = prefix.toUpperCase();
  if (p === "EL") return "GR";
  if (p === "GR") return null; // Greece's VAT numbers start EL, not GR
  return isEuCountry(p) ? p : null;
}

/** A tax id as typed, tidied: upper case, without spaces, dots, dashes or slashes. */
export const tidyTaxId = (raw: string): string => raw.toUpperCase().replace(/[\s.\-/]/g, "");

export type VatCheck =
  { ok: true; country: string; vatId: string } | { ok: false; message: string };

/**
 * Checks an EU VAT number's form for `country` (when given) or for the member state its prefix
 * names. Answers the number written the standard way (prefix + body), or why it is not valid.
 */
export function checkEuVatId(raw: string, country?: string | null): VatCheck {
  const id = tidyTaxId(raw);
  const named = country ? country.toUpperCase() : countryOfVatPrefix(id.slice(0, 2));
  if (!named || !isEuCountry(named)) {
    return {
      ok: false,
      message: "Start an EU VAT number with its country prefix, like DE123456789",
    };
  }
  const format = EU_VAT_FORMATS[named]!;
  const prefixed = id.startsWith(format.prefix);
  // A number typed without its prefix gets it; one with another member state's prefix does not.
  if (!prefixed && countryOfVatPrefix(id.slice(0, 2)) !== null && /^[A-Z]{2}/.test(id)) {
    return {
      ok: false,
      message: `A ${countryName(named)} VAT number starts with ${format.prefix}, like ${format.example}`,
    };
  }
  const body = prefixed ? id.slice(format.prefix.length) : id;
  if (!format.body.test(body)) {
    return {
      ok: false,
      message: `Not a valid ${countryName(named)} VAT number: ${format.prefix} and ${format.shape}, like ${format.example}`,
    };
  }
  return { ok: true, country: named, vatId: format.prefix + body };
}

const NAMES: Record<string, string> = {
  AT: "Austrian",
  BE: "Belgian",
  BG: "Bulgarian",
  CY: "Cypriot",
  CZ: "Czech",
  DE: "German",
  DK: "Danish",
  EE: "Estonian",
  ES: "Spanish",
  FI: "Finnish",
  FR: "French",
  GR: "Greek",
  HR: "Croatian",
  HU: "Hungarian",
  IE: "Irish",
  IT: "Italian",
  LT: "Lithuanian",
  LU: "Luxembourg",
  LV: "Latvian",
  MT: "Maltese",
  NL: "Dutch",
  PL: "Polish",
  PT: "Portuguese",
  RO: "Romanian",
  SE: "Swedish",
  SI: "Slovenian",
  SK: "Slovak",
};
const countryName = (c: string) => NAMES[c] ?? c;
