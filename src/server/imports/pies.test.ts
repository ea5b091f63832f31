import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { readPies, type PiesItem, type PiesLimits } from "./pies";
import { ImportFileError } from "./xml-stream";

const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);
const roomy: PiesLimits = { maxBytes: 1024 * 1024, maxItems: 1000 };

/** Reads a fixture file as a stream of small chunks (so elements cross chunk borders). */
async function read(name: string, limits = roomy) {
  const items: PiesItem[] = [];
  const result = await readPies(createReadStream(fixture(name), { highWaterMark: 64 }), limits, {
    onItems: async (batch) => void items.push(...batch),
  });
  return { ...result, all: items };
}

/** The error a refused file gets. */
async function refusal(name: string, limits = roomy) {
  const err = await readPies(createReadStream(fixture(name)), limits, {
    onItems: async () => {},
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportFileError);
  return err as ImportFileError;
}

const lineOf = (name: string, text: string) =>
  readFileSync(fixture(name), "utf8")
    .split("\n")
    .findIndex((l) => l.includes(text)) + 1;

test("a PIES 7.1 file in the Auto Care namespace: every item's fields as the import takes them", async () => {
  const { header, items, all } = await read("pies-good.xml");
  expect(header).toEqual({ version: "7.1" });
  expect(items).toBe(4);
  expect(all.map((i) => i.partNumber)).toEqual(["PT-100", "PT-200", "PT-300", "PT-400"]);
  // PT-100: the English DES is the name, SHO beats EXT; the LST price, not the JBR one; the first
  // package's shipping sides (not merchandising) in mm and its weight in g; an asset without an
  // address is left out; the interchange brand "Toyota OE" makes OE numbers.
  expect(all[0]).toEqual({
    line: lineOf("pies-good.xml", '<Item MaintenanceType="A">'),
    partNumber: "PT-100",
    partKey: "PT100",
    brandCode: "PTST",
    brandLabel: "Pies Test Brakes",
    name: "Ceramic Brake Pad Set",
    description: "Front pads, low dust",
    productGroup: "brakes",
    category: "Brakes",
    minimumOrder: 2,
    listPriceCents: 4999,
    attributes: [
      { name: "Pad Thickness", unit: "MM", value: "17.5" },
      { name: "Friction Material", unit: null, value: "Ceramic" },
    ],
    dimensions: { heightMm: 51, widthMm: 114, lengthMm: 178 },
    weightGrams: 1134,
    interchange: [
      { kind: "competitor", brand: "Acme Parts", number: "AC-5521" },
      { kind: "competitor", brand: "Acme Parts", number: "AC 5521-B" },
      { kind: "OE", brand: "Toyota OE", number: "04465-02220" },
    ],
    assets: [
      { kind: "image", title: "Pad set, front view", url: "https://cdn.example.com/pt-100.jpg" },
      {
        kind: "document",
        title: "pt-100-install.pdf",
        url: "https://cdn.example.com/pt-100-install.pdf",
      },
    ],
  });
  // MKT when there is no SHO; centimetres and kilograms.
  expect(all[1]).toMatchObject({
    description: "Cooler stops, every time",
    listPriceCents: 8950,
    dimensions: { heightMm: 300, widthMm: 300, lengthMm: 55 },
    weightGrams: 6200,
  });
  expect(all[1]!.problem).toBeUndefined();
  // A lower-case brand code, a category in capitals, ounces, no currency (USD).
  expect(all[2]).toMatchObject({
    brandCode: "PTST",
    category: "Filters",
    listPriceCents: 725,
    weightGrams: 227,
    assets: [{ kind: "image", title: "pt-300.png" }],
  });
  expect(all[2]!.attributes).toBeUndefined();
  expect(all[2]!.interchange).toBeUndefined();
  // A group that is none of our categories is kept as written; the first problem is told.
  expect(all[3]).toMatchObject({
    productGroup: "Spark Plugs",
    problem: { kind: "bad_value", message: 'Price "abc" is not a price from 0 to 999,999.99' },
  });
  expect(all[3]!.category).toBeUndefined();
});

test("an item's problems: a bad number, another currency, an unknown unit, no brand, a deletion, an address that is not https", async () => {
  const { all } = await read("pies-bad-item.xml");
  expect(all.map((i) => [i.partNumber, i.problem])).toEqual([
    [
      "PT-500",
      {
        kind: "bad_value",
        message: 'MinimumOrderQuantity "0.5" is not a whole number from 1 to 10,000,000',
      },
    ],
    [
      "PT-501",
      { kind: "bad_value", message: "The list price is in EUR: only USD prices are imported" },
    ],
    ["PT-502", { kind: "bad_value", message: 'Dimensions UOM "FT" is none of IN, CM or MM' }],
    ["PT-503", { kind: "bad_value", message: "The item has no BrandAAIAID" }],
    [
      "PT-504",
      {
        kind: "bad_value",
        message:
          'MaintenanceType "D" (delete) is not imported: the store removes a part on its page',
      },
    ],
  ]);
  const { all: good } = await read("pies-good.xml");
  // PT-400's price is its first problem; alone, its http asset is one too.
  const httpOnly = await readPies(
    (async function* () {
      yield Buffer.from(
        "<PIES><Header><PIESVersion>7.1</PIESVersion></Header><Items><Item><PartNumber>X-1</PartNumber><BrandAAIAID>PTST</BrandAAIAID><DigitalAssets><DigitalFileInformation><FileName>x.jpg</FileName><URI>http://cdn.example.com/x.jpg</URI></DigitalFileInformation></DigitalAssets></Item></Items></PIES>",
      );
    })(),
    roomy,
    { onItems: async (items) => void good.push(...items) },
  );
  expect(httpOnly.items).toBe(1);
  expect(good.at(-1)!.problem).toEqual({
    kind: "bad_asset",
    message: 'Asset "x.jpg" is not at an https address: http://cdn.example.com/x.jpg',
  });
  // An https address no browser can follow is no better.
  const broken: PiesItem[] = [];
  await readPies(
    (async function* () {
      yield Buffer.from(
        "<PIES><Header><PIESVersion>7.1</PIESVersion></Header><Items><Item><PartNumber>X-2</PartNumber><BrandAAIAID>PTST</BrandAAIAID><DigitalAssets><DigitalFileInformation><URI>https://[cdn</URI></DigitalFileInformation></DigitalAssets></Item></Items></PIES>",
      );
    })(),
    roomy,
    { onItems: async (items) => void broken.push(...items) },
  );
  expect(broken[0]!.problem).toEqual({
    kind: "bad_asset",
    message: 'Asset "https://[cdn" is not at an https address: https://[cdn',
  });
});

test("hostile or broken files are refused with the reason and, where there is one, the line", async () => {
  expect((await refusal("pies-external-entity.xml")).message).toBe(
    "The file has a DOCTYPE: PIES files have none, and files with one are refused (no entities are read)",
  );
  const truncated = await refusal("pies-truncated.xml");
  expect(truncated.message).toBe(
    "The file ends before its Item element is closed: it may have been cut short (upload it again)",
  );
  const malformed = await refusal("pies-malformed.xml");
  expect(malformed.message).toMatch(/^The file is not well-formed XML \(line 7\): /);
  expect(malformed.line).toBe(7);
  expect((await refusal("pies-wrong-root.xml")).message).toBe(
    "This is not a PIES file: its root element is ACES, not PIES",
  );
  expect((await refusal("pies-wrong-namespace.xml")).message).toBe(
    "The element PIES is in the namespace http://example.com/not-pies: PIES files have none or http://www.autocare.org (is this a PIES file?)",
  );
  expect((await refusal("pies-wrong-version.xml")).message).toBe(
    "This is a PIES 6.5 file: only PIES 7.x files are read",
  );
  expect((await refusal("pies-good.xml", { maxBytes: 1024 * 1024, maxItems: 3 })).message).toBe(
    "The file has more than 3 items, the most one import takes: split it",
  );
  expect((await refusal("pies-good.xml", { maxBytes: 1024, maxItems: 1000 })).message).toMatch(
    /^The file is larger than .* MiB, the most one import takes$/,
  );
});
