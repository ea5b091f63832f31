import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import {
  AcesFileError,
  MAX_RUN_WITHOUT_MARKUP,
  readAces,
  type AcesApplication,
  type AcesLimits,
} from "./aces";

const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);
const roomy: AcesLimits = { maxBytes: 1024 * 1024, maxApplications: 1000 };

/** Reads a fixture file as a stream of small chunks (so elements cross chunk borders). */
async function read(name: string, limits = roomy) {
  const apps: AcesApplication[] = [];
  const headers: string[] = [];
  const result = await readAces(createReadStream(fixture(name), { highWaterMark: 64 }), limits, {
    onHeader: (h) => void headers.push(h.brand),
    onApplications: async (batch) => void apps.push(...batch),
  });
  return { ...result, apps, headers };
}

/** The error a refused file gets. */
async function refusal(source: string | AsyncIterable<Buffer>, limits = roomy) {
  const stream = typeof source === "string" ? createReadStream(fixture(source)) : source;
  const err = await readAces(stream, limits, { onApplications: async () => {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AcesFileError);
  return err as AcesFileError;
}

async function* chunks(...parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}

test("a well-formed ACES 4.2 file: the header's brand and every App, as written", async () => {
  const { header, applications, apps, headers } = await read("good.xml");
  expect(header).toEqual({ version: "4.2", brand: "TSTB" });
  expect(headers).toEqual(["TSTB"]); // told once, before the applications
  expect(applications).toBe(8);
  expect(apps.map((a) => a.id)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  const text = readFileSync(fixture("good.xml"), "utf8").split("\n");
  for (const a of apps)
    expect(text[a.line - 1]).toContain(`<App action="${a.action}" id="${a.id}">`);

  // BaseVehicle; the Position and PartType are read and ignored (no note, no problem).
  expect(apps[0]).toEqual({
    id: "1",
    line: apps[0]!.line,
    action: "A",
    baseVehicle: 101012015,
    quantity: 1,
    part: "TB-100",
    note: null,
  });
  // Make, Model and Years, with a submodel and an engine configuration.
  expect(apps[1]).toMatchObject({
    make: 101,
    model: 10101,
    years: { from: 2014, to: 2016 },
    subModel: 7001,
    engineConfig: 5001,
    quantity: 2,
    part: "tb 200",
    note: null,
  });
  expect(apps[1]!.baseVehicle).toBeUndefined();
  // Attributes we cannot match go into the note, with the Note and the Qual's text.
  expect(apps[2]!.note).toBe("EngineBase 1234; DriveType 8; with sport suspension; with 4 doors");
  expect(apps[2]!.problem).toBeUndefined();
  expect(apps[3]).toMatchObject({ action: "D", baseVehicle: 101012017 });
  expect(apps[4]!.problem).toEqual({
    kind: "bad_quantity",
    message: 'Qty "0" is not a whole number from 1 to 100',
  });
  expect(apps[5]!.problem).toEqual({
    kind: "unknown_part",
    message: "The application names no Part",
  });
  expect(apps[6]!.problem).toEqual({
    kind: "unknown_vehicle",
    message: "The application names no vehicle: a BaseVehicle, or a Make, Model and Years",
  });
  // CDATA and the predefined entities are text.
  expect(apps[7]).toMatchObject({ part: "TB-&-400", note: "A & B" });
});

test("a file declared ISO-8859-1 is read in that encoding", async () => {
  const { apps } = await read("latin1.xml");
  expect(apps[0]!.note).toBe("Stoßdämpfer");
});

test("XML that is not well-formed is refused with its line", async () => {
  const err = await refusal("malformed.xml");
  expect(err.message).toBe("The file is not well-formed XML (line 9): unexpected close tag");
  expect(err.line).toBe(9);
});

test("a file cut short is refused as such, whatever it held before", async () => {
  const err = await refusal("truncated.xml");
  expect(err.message).toMatch(
    /^The file ends before its \w+ element is closed: it may have been cut short/,
  );
});

test("any DOCTYPE is refused before an entity is read: billion laughs, external entity", async () => {
  for (const name of ["billion-laughs.xml", "external-entity.xml"]) {
    const err = await refusal(name);
    expect(err.message).toBe(
      "The file has a DOCTYPE: ACES files have none, and files with one are refused (no entities are read)",
    );
  }
  // An entity no DOCTYPE declares is no more than malformed XML.
  expect((await refusal("undeclared-entity.xml")).message).toMatch(
    /^The file is not well-formed XML \(line 10\): undefined entity/,
  );
});

test("another root, a namespace, another version, no brand, a net change file: refused, said why", async () => {
  expect((await refusal("wrong-root.xml")).message).toBe(
    "This is not an ACES file: its root element is PIES, not ACES",
  );
  expect((await refusal("namespaced.xml")).message).toBe(
    "The element ACES is in the namespace urn:example:not-aces: ACES files have no namespace (is this an ACES file?)",
  );
  expect((await refusal("aces-3.xml")).message).toBe(
    "This is an ACES 3.2 file: only ACES 4.x files are read",
  );
  expect((await refusal("no-brand.xml")).message).toBe(
    "The file has no brand: its Header needs a BrandAAIAID",
  );
  expect((await refusal("net-change.xml")).message).toMatch(
    /^The file is a "NET" submission: only full files \(SubmissionType FULL\) are imported/,
  );
  expect((await refusal(chunks(""))).message).toBe("The file is empty");
  expect((await refusal(chunks("just text"))).message).toMatch(/not well-formed|not an ACES file/);
});

test("the size limit is counted as the file streams: a file without end is cut off at the limit", async () => {
  let sent = 0;
  async function* endless() {
    yield Buffer.from(
      '<?xml version="1.0"?><ACES version="4.2"><Header><BrandAAIAID>X</BrandAAIAID></Header>',
    );
    for (;;) {
      sent += 1;
      yield Buffer.from(
        "<App action='A' id='1'><BaseVehicle id='1'/><Qty>1</Qty><Part>P</Part></App>".repeat(100),
      );
    }
  }
  const err = await refusal(endless(), { maxBytes: 64 * 1024, maxApplications: 1_000_000 });
  expect(err.message).toBe("The file is larger than 0.1 MiB, the most one import takes");
  expect(sent).toBeLessThan(10); // stopped at the limit, not at the end
});

test("more applications than the limit are refused", async () => {
  const err = await refusal("good.xml", { maxBytes: 1024 * 1024, maxApplications: 3 });
  expect(err.message).toBe(
    "The file has more than 3 applications, the most one import takes: split it",
  );
});

test("a text longer than the longest stretch without markup is refused before it is buffered", async () => {
  const head =
    '<ACES version="4.2"><Header><BrandAAIAID>X</BrandAAIAID></Header><App id="1"><Note>';
  const err = await refusal(chunks(head, "x".repeat(MAX_RUN_WITHOUT_MARKUP + 1)), {
    maxBytes: 8 * 1024 * 1024,
    maxApplications: 10,
  });
  expect(err.message).toBe(
    "The file has a text, comment or attribute longer than 1 MiB: not an ACES file",
  );
});
