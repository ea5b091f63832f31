import { formatCount } from "../../contract/count";
import { SaxesParser, type SaxesTagNS } from "saxes";
import {
  batchesTo,
  formatBytes,
  ImportFileError,
  MAX_RUN_WITHOUT_MARKUP,
  refuseDoctype,
  streamXml,
} from "./xml-stream";

/**
 * ACES 4.x fitment files (Auto Care Association), read as a stream (docs/imports.md): the file is
 * never in memory whole, only the chunk being parsed and the applications read from it. What is
 * read: the `ACES` root (version 4.x, no namespace: the schema has none), the Header's
 * `BrandAAIAID` (and `SubmissionType`), and each `App`. Everything else is skipped.
 *
 * Refused with an `AcesFileError` (nothing is written then): a DOCTYPE of any kind (ACES files
 * have none, so no entity is ever expanded and no external one ever read), XML that is not
 * well-formed (with its line), a file that ends early, another root element or a namespace, a
 * file over the size limit (counted as it streams) or with more applications than the limit.
 */

export interface AcesLimits {
  /** Bytes read at most; the file is refused as soon as it goes past them. */
  maxBytes: number;
  /** `App` elements at most. */
  maxApplications: number;
}

export interface AcesHeader {
  /** The `version` attribute of the root, "4.2". */
  version: string;
  /** The Header's `BrandAAIAID`: the brand whose applications the file holds. */
  brand: string;
}

/** A problem of one application that the parser already sees (the others need the database). */
export interface AcesAppProblem {
  kind: "unknown_vehicle" | "unknown_part" | "bad_quantity";
  message: string;
}

/** One `App`: the vehicle it names, the part, how many, and the notes. */
export interface AcesApplication {
  /** The `id` attribute (empty when the App has none). */
  id: string;
  /** The line its `<App` tag ends on. */
  line: number;
  action: "A" | "D";
  baseVehicle?: number;
  make?: number;
  model?: number;
  years?: { from: number; to: number };
  subModel?: number;
  engineConfig?: number;
  /** The `Qty`, when it is a whole number from 1 to 100. */
  quantity?: number;
  /** The `Part` as written. */
  part: string;
  /** `Note`s, `Qual` texts and the vehicle attributes we cannot match ("EngineBase 1234"), joined. */
  note: string | null;
  /** The first problem found while reading; the application is skipped when it has one. */
  problem?: AcesAppProblem;
}

/** A refused ACES file: the imports' shared `ImportFileError` (xml-stream.ts). */
export const AcesFileError = ImportFileError;
export type AcesFileError = ImportFileError;

/** The longest note kept (the rest is cut, marked with "…"). */
export const MAX_NOTE_LENGTH = 500;
/** Longest text of an element we read (Part, Qty, Note…); longer text is cut there. */
const MAX_TEXT = 2_000;
export { MAX_RUN_WITHOUT_MARKUP };

/** What the App's children may be beyond those we read: not vehicle attributes, not noted. */
const IGNORED_APP_CHILDREN = new Set([
  "Position", // no PCdb position table here: read and ignored (docs/imports.md)
  "PartType",
  "MfrLabel",
  "AssetName",
  "AssetItemOrder",
  "AssetItemRef",
  "DisplayOrder",
  "BrandAAIAID",
  "SubBrandAAIAID",
  "VehicleType",
]);
/** Equipment (non-vehicle) applications of ACES 4.2: not fitment we can show. */
const EQUIPMENT_ELEMENTS = new Set(["Mfr", "EquipmentModel", "EquipmentBase", "ProductionYears"]);

const wholeNumber = (s: string | undefined) =>
  s !== undefined && /^\s*\d{1,9}\s*$/.test(s) ? Number(s) : undefined;

interface AppDraft {
  app: AcesApplication;
  notes: string[];
  hasQty: boolean;
}

/**
 * Reads an ACES file from `source` (its bytes, in chunks), telling `onHeader` the header once
 * (before any application) and `onApplications` each batch of applications read from a chunk,
 * awaited before the next chunk is read. Answers the header and how many applications there were.
 * Throws `AcesFileError` for a file it refuses; whatever a handler wrote must then be undone.
 */
export async function readAces(
  source: AsyncIterable<Buffer | string>,
  limits: AcesLimits,
  handlers: {
    onHeader?: (header: AcesHeader) => void | Promise<void>;
    onApplications: (apps: AcesApplication[]) => Promise<void>;
  },
): Promise<{ header: AcesHeader; applications: number }> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  /** Local names of the open elements, the root first. */
  const open: string[] = [];
  let rootClosed = false;
  let version: string | undefined;
  let brand: string | undefined;
  let submissionType: string | undefined;
  let header: AcesHeader | undefined;
  let headerTold = false;
  /** The header, once settled, until `onHeader` has been told it. */
  let pendingHeader: AcesHeader | undefined;
  let applications = 0;
  let draft: AppDraft | undefined;
  let text: string | undefined;
  const applicationsRead = batchesTo((apps: AcesApplication[]) => handlers.onApplications(apps));

  const fail = (message: string): never => {
    throw new AcesFileError(message, parser.line);
  };

  /** The header, checked, once the Header has closed (or the first App opened). */
  const settleHeader = () => {
    if (header) return header;
    if (!brand) {
      fail("The file has no brand: its Header needs a BrandAAIAID");
    }
    if (submissionType && submissionType.toUpperCase() !== "FULL") {
      fail(
        `The file is a "${submissionType}" submission: only full files (SubmissionType FULL) are imported, as an import replaces the brand's applications`,
      );
    }
    header = { version: version!, brand: brand! };
    return header;
  };

  refuseDoctype(parser, "ACES", fail);
  parser.on("opentag", (tag) => {
    const t = tag as SaxesTagNS;
    const name = t.local;
    if (t.uri !== "") {
      fail(
        `The element ${t.name} is in the namespace ${t.uri}: ACES files have no namespace (is this an ACES file?)`,
      );
    }
    const attr = (n: string) => t.attributes[n]?.value;
    const depth = open.length;
    open.push(name);
    if (depth === 0) {
      if (name !== "ACES") fail(`This is not an ACES file: its root element is ${name}, not ACES`);
      version = attr("version")?.trim();
      if (!version) fail("The ACES element has no version: only ACES 4.x files are read");
      if (!/^4(\.\d+)*$/.test(version!)) {
        fail(`This is an ACES ${version} file: only ACES 4.x files are read`);
      }
      return;
    }
    const parent = open[depth - 1];
    if (depth === 1 && name === "App") {
      const h = settleHeader();
      if (!headerTold) {
        headerTold = true;
        pendingHeader = h;
      }
      applications++;
      if (applications > limits.maxApplications) {
        fail(
          `The file has more than ${formatCount(limits.maxApplications)} applications, the most one import takes: split it`,
        );
      }
      const action = (attr("action") ?? "A").trim().toUpperCase();
      const started: AppDraft = {
        app: {
          id: (attr("id") ?? "").slice(0, 100),
          line: parser.line,
          action: "A",
          part: "",
          note: null,
        },
        notes: [],
        hasQty: false,
      };
      draft = started;
      if (action === "D") started.app.action = "D";
      else if (action !== "A") {
        started.app.problem ??= {
          kind: "unknown_vehicle",
          message: `The action "${action.slice(0, 10)}" is neither A (add) nor D (delete)`,
        };
      }
      return;
    }
    if (parent === "Header" && depth === 2) {
      if (name === "BrandAAIAID" || name === "SubmissionType") text = "";
      return;
    }
    if (draft && depth === 2) {
      readAppChild(draft, name, attr);
      return;
    }
    if (draft && depth === 3 && parent === "Qual" && name === "text") text = "";
  });

  /** One child of an App, from its attributes; the text ones start collecting their text. */
  function readAppChild(d: AppDraft, name: string, attr: (n: string) => string | undefined) {
    const { app } = d;
    const id = () => {
      const raw = attr("id");
      const n = wholeNumber(raw);
      if (n === undefined) {
        app.problem ??= {
          kind: "unknown_vehicle",
          message: `${name} id "${(raw ?? "").slice(0, 20)}" is not a number`,
        };
      }
      return n;
    };
    switch (name) {
      case "BaseVehicle":
        app.baseVehicle = id();
        return;
      case "Make":
        app.make = id();
        return;
      case "Model":
        app.model = id();
        return;
      case "SubModel":
        app.subModel = id();
        return;
      case "EngineConfig":
        app.engineConfig = id();
        return;
      case "Years": {
        const from = wholeNumber(attr("from"));
        const to = wholeNumber(attr("to"));
        if (from === undefined || to === undefined || from > to || from < 1900 || to > 2100) {
          app.problem ??= {
            kind: "unknown_vehicle",
            message: `Years from "${attr("from") ?? ""}" to "${attr("to") ?? ""}" is not a range of years`,
          };
        } else app.years = { from, to };
        return;
      }
      case "Qty":
      case "Part":
      case "Note":
        text = "";
        return;
      case "Qual":
        return; // its `text` child is read
      default:
        if (EQUIPMENT_ELEMENTS.has(name)) {
          app.problem ??= {
            kind: "unknown_vehicle",
            message: "Equipment applications are not imported, only vehicles",
          };
        } else if (!IGNORED_APP_CHILDREN.has(name)) {
          // A vehicle attribute we cannot match (EngineBase, DriveType…): said in the note.
          const value = attr("id") ?? "";
          d.notes.push(value ? `${name} ${value.slice(0, 20)}` : name);
        }
    }
  }

  parser.on("text", (chunk) => {
    if (text !== undefined && text.length < MAX_TEXT) text += chunk.slice(0, MAX_TEXT);
  });
  parser.on("cdata", (chunk) => {
    if (text !== undefined && text.length < MAX_TEXT) text += chunk.slice(0, MAX_TEXT);
  });

  parser.on("closetag", (tag) => {
    const name = (tag as SaxesTagNS).local;
    open.pop();
    const depth = open.length;
    const value = text?.trim();
    text = undefined;
    if (depth === 0) {
      rootClosed = true;
      return;
    }
    if (depth === 1 && name === "Header") {
      const h = settleHeader();
      if (!headerTold) {
        headerTold = true;
        pendingHeader = h;
      }
      return;
    }
    if (depth === 2 && open[1] === "Header") {
      if (name === "BrandAAIAID") brand = value?.slice(0, 20) || undefined;
      if (name === "SubmissionType") submissionType = value?.slice(0, 40) || undefined;
      return;
    }
    if (!draft) return;
    if (depth === 1 && name === "App") {
      applicationsRead.add(finishApp(draft));
      draft = undefined;
      return;
    }
    if (depth === 2) {
      if (name === "Part") draft.app.part = value ?? "";
      if (name === "Note" && value) draft.notes.push(value);
      if (name === "Qty") {
        draft.hasQty = true;
        const n = wholeNumber(value);
        if (n !== undefined && n >= 1 && n <= 100) draft.app.quantity = n;
        else {
          draft.app.problem ??= {
            kind: "bad_quantity",
            message: `Qty "${(value ?? "").slice(0, 20)}" is not a whole number from 1 to 100`,
          };
        }
      }
      return;
    }
    if (depth === 3 && name === "text" && open[2] === "Qual" && value) draft.notes.push(value);
  });

  /** The App as read, with the problems only the whole App shows. */
  function finishApp({ app, notes, hasQty }: AppDraft): AcesApplication {
    const byBase = app.baseVehicle !== undefined;
    const byModel = app.make !== undefined || app.model !== undefined || app.years !== undefined;
    if (!app.problem) {
      if (byBase && byModel) {
        app.problem = {
          kind: "unknown_vehicle",
          message: "The application names a BaseVehicle and also a Make, Model or Years",
        };
      } else if (
        !byBase &&
        (app.make === undefined || app.model === undefined || app.years === undefined)
      ) {
        app.problem = {
          kind: "unknown_vehicle",
          message: "The application names no vehicle: a BaseVehicle, or a Make, Model and Years",
        };
      } else if (!app.part) {
        app.problem = { kind: "unknown_part", message: "The application names no Part" };
      } else if (!hasQty) {
        app.problem = { kind: "bad_quantity", message: "The application has no Qty" };
      }
    }
    const joined = notes.join("; ");
    app.note =
      joined.length === 0
        ? null
        : joined.length > MAX_NOTE_LENGTH
          ? `${joined.slice(0, MAX_NOTE_LENGTH - 1)}…`
          : joined;
    app.part = app.part.slice(0, 100);
    return app;
  }

  const tell = async () => {
    if (pendingHeader) {
      const h = pendingHeader;
      pendingHeader = undefined;
      await handlers.onHeader?.(h);
    }
    await applicationsRead.tell();
  };

  await streamXml(source, parser, {
    maxBytes: limits.maxBytes,
    standard: "ACES",
    rootClosed: () => rootClosed,
    openElement: () => open.at(-1),
    afterChunk: tell,
  });
  if (!header) settleHeader();
  return { header: header!, applications };
}

export { formatBytes };
