import { addressMessages, COUNTRY_CODES, countryName } from "#contract/addresses";

let byName: { code: string; name: string }[] | undefined;

/** Every country an address may be in, sorted by its name (made on first use). */
function countriesByName() {
  byName ??= COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  return byName;
}

/**
 * A country select's options: every country by its name, after "Choose a country" while none is
 * chosen (no country preset: a market of several, the store's not among them).
 */
export function CountryOptions({ chosen }: { chosen: string | undefined }) {
  return (
    <>
      {!chosen && <option value="">{addressMessages.country}</option>}
      {countriesByName().map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </>
  );
}
