import { formatCount } from "../../contract/count";
import { SaxesParser, type SaxesTagNS } from "saxes";
import {
  MAX_ATTRIBUTE_NAME,
  MAX_ATTRIBUTE_TEXT,
  MAX_ATTRIBUTE_UNIT,
} from "../../contract/attributes";
import {
  normalizePartNumber,
  productCategories,
  type CrossReferenceKind,
  type ProductCategory,
} from "../../contract/constants";
import type { ImportErrorKind } from "../../contract/imports";
import {
  MAX_BRAND_LENGTH,
  MAX_CROSS_REFERENCES,
  MAX_DESCRIPTION_LENGTH,
  MAX_DIMENSION_MM,
  MAX_IMAGE_LINK_LENGTH,
  MAX_PART_NUMBER_LENGTH,
  MAX_PRICE,
  MAX_PRODUCT_NAME_LENGTH,
  MAX_QUANTITY,
  MAX_WEIGHT_GRAMS,
} from "../../contract/products";
import { batchesTo, ImportFileError, refuseDoctype, streamXml } from "./xml-stream";

/**
 * PIES 7.x product data files (Auto Care Association), read as a stream (docs/imports.md): only
 * the chunk being parsed and the item being read are in memory. What is read: the `PIES` root
 * (no namespace, or the Auto Care one), the Header's `PIESVersion` (7.x), and of each
 * `Items/Item` its part number, brand, descriptions, product group, minimum order, list price,
 * attributes, first package, interchange numbers and digital assets. Everything else is skipped.
 *
 * Refused with an `ImportFileError` (nothing is written then): a DOCTYPE of any kind (so no
 * entity is ever expanded and no external one ever read), XML that is not well-formed (with its
 * line), a file that ends early, another root element or namespace, another PIES version, a file
 * over the size limit or with more items than the limit.
 */

export interface PiesLimits {
  /** Bytes read at most. */
  maxBytes: number;
  /** `Item` elements at most. */
  maxItems: number;
}

export interface PiesHeader {
  /** The Header's `PIESVersion`, "7.1". */
  version: string;
}

/** The Auto Care namespace PIES 7.x files may declare (elements in no namespace are read too). */
export const PIES_NAMESPACE = "http://www.autocare.org";

export interface PiesItemProblem {
  kind: ImportErrorKind;
  message: string;
}

export interface PiesAsset {
  kind: "image" | "document";
  title: string;
  url: string;
}

/** One `Item` as read: each field undefined when the file does not give it. */
export interface PiesItem {
  /** The line its `<Item` tag ends on. */
  line: number;
  /** `PartNumber` as written (trimmed). */
  partNumber: string;
  /** Normalised (letters and digits, upper-case), as products are matched. */
  partKey: string;
  /** `BrandAAIAID`, upper-case. */
  brandCode?: string;
  brandLabel?: string;
  /** The `DES` description, cut to the name's limit. */
  name?: string;
  /** `SHO`, else `MKT`, else `EXT`, cut to the description's limit. */
  description?: string;
  /** The `ProductGroupCode` when it names one of our categories (in any case). */
  category?: ProductCategory;
  /** The `ProductGroupCode` as written (undefined: none given). */
  productGroup?: string;
  minimumOrder?: number;
  /** The `LST` price in cents. */
  listPriceCents?: number;
  /** `ProductAttributes` given (even empty): the part's values are replaced then. */
  attributes?: { name: string; unit: string | null; value: string }[];
  weightGrams?: number;
  dimensions?: { lengthMm: number; widthMm: number; heightMm: number };
  /** `PartInterchangeInfo` given: the part's cross references are replaced then. */
  interchange?: { kind: CrossReferenceKind; brand: string; number: string }[];
  /** `DigitalAssets` given: the part's assets are replaced then. */
  assets?: PiesAsset[];
  /** The first problem found while reading; the item is skipped when it has one. */
  problem?: PiesItemProblem;
}

/** An element of an Item (or of the Header), kept until the Item closes. */
interface Node {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: Node[];
}

/** Longest text of an element we keep; longer text is cut there. */
const MAX_TEXT = 4_000;
/** Elements one Item may hold at most (a larger one is skipped with a problem). */
const MAX_NODES_PER_ITEM = 5_000;

const child = (n: Node | undefined, name: string) => n?.children.find((c) => c.name === name);
const children = (n: Node | undefined, name: string) =>
  n?.children.filter((c) => c.name === name) ?? [];
const textOf = (n: Node | undefined) => n?.text.trim() || undefined;

/** A part number as the product form takes it (contract/products.ts `partNumberPattern`). */
const PART_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 ./-]*$/;
const BRAND_CODE = /^[A-Z0-9]{1,20}$/;
const DECIMAL = /^\d{1,12}(\.\d{1,8})?$/;

/** Millimetres per unit of a `Dimensions UOM`, grams per unit of a `Weights UOM`. */
const MM_PER: Record<string, number> = { IN: 25.4, CM: 10, MM: 1 };
const GRAMS_PER: Record<string, number> = { LB: 453.59237, KG: 1000, GR: 1, OZ: 28.349523125 };

/** Cross-reference brands that are the carmaker's own: their numbers are OE numbers. */
const OE_BRAND = /\b(OE|OEM|OES|original equipment|genuine)\b/i;

const categoryByName = new Map(productCategories.map((c) => [c.toLowerCase(), c]));

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Reads a PIES file from `source`, telling `onItems` each batch of items read from a chunk
 * (awaited before the next chunk is read). Answers the header and how many items there were.
 * Throws `ImportFileError` for a file it refuses.
 */
export async function readPies(
  source: AsyncIterable<Buffer | string>,
  limits: PiesLimits,
  handlers: { onItems: (items: PiesItem[]) => Promise<void> },
): Promise<{ header: PiesHeader; items: number }> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  /** Local names of the open elements, the root first. */
  const open: string[] = [];
  let rootClosed = false;
  let rootVersion: string | undefined;
  let header: PiesHeader | undefined;
  let headerNode: Node | undefined;
  let items = 0;
  /** The Item being read, its open elements (the Item first), its line and size. */
  let item: { stack: Node[]; line: number; nodes: number } | undefined;
  const itemsRead = batchesTo((read: PiesItem[]) => handlers.onItems(read));

  const fail = (message: string): never => {
    throw new ImportFileError(message, parser.line);
  };

  /** The version, checked, once the Header has closed (or the first Item opened). */
  const settleHeader = (): PiesHeader => {
    if (header) return header;
    const version = textOf(child(headerNode, "PIESVersion")) ?? rootVersion;
    if (!version) fail("The file has no PIES version: its Header needs a PIESVersion");
    if (!/^7(\.\d+)*$/.test(version!)) {
      fail(`This is a PIES ${version!.slice(0, 20)} file: only PIES 7.x files are read`);
    }
    header = { version: version! };
    return header;
  };

  refuseDoctype(parser, "PIES", fail);
  parser.on("opentag", (tag) => {
    const t = tag as SaxesTagNS;
    const name = t.local;
    if (t.uri !== "" && t.uri !== PIES_NAMESPACE) {
      fail(
        `The element ${t.name} is in the namespace ${t.uri}: PIES files have none or ${PIES_NAMESPACE} (is this a PIES file?)`,
      );
    }
    const depth = open.length;
    open.push(name);
    if (depth === 0) {
      if (name !== "PIES") fail(`This is not a PIES file: its root element is ${name}, not PIES`);
      rootVersion = t.attributes.version?.value.trim() || undefined;
      if (rootVersion && !/^7(\.\d+)*$/.test(rootVersion)) {
        fail(`This is a PIES ${rootVersion.slice(0, 20)} file: only PIES 7.x files are read`);
      }
      return;
    }
    const attrs = () => {
      const out: Record<string, string> = {};
      for (const [k, a] of Object.entries(t.attributes)) out[a.local || k] = a.value;
      return out;
    };
    if (item) {
      if (++item.nodes > MAX_NODES_PER_ITEM) return;
      const node: Node = { name, attrs: attrs(), text: "", children: [] };
      item.stack.at(-1)!.children.push(node);
      item.stack.push(node);
      return;
    }
    if (depth === 1 && name === "Header") {
      headerNode = { name, attrs: {}, text: "", children: [] };
      return;
    }
    if (headerNode && depth === 2 && open[1] === "Header") {
      headerNode.children.push({ name, attrs: {}, text: "", children: [] });
      return;
    }
    if (depth === 2 && open[1] === "Items" && name === "Item") {
      settleHeader();
      items++;
      if (items > limits.maxItems) {
        fail(
          `The file has more than ${formatCount(limits.maxItems)} items, the most one import takes: split it`,
        );
      }
      item = {
        stack: [{ name, attrs: attrs(), text: "", children: [] }],
        line: parser.line,
        nodes: 1,
      };
    }
  });

  const onText = (chunk: string) => {
    const target = item
      ? item.nodes <= MAX_NODES_PER_ITEM
        ? item.stack.at(-1)
        : undefined
      : headerNode && open.length === 3 && open[1] === "Header"
        ? headerNode.children.at(-1)
        : undefined;
    if (target && target.text.length < MAX_TEXT) target.text += chunk.slice(0, MAX_TEXT);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);

  parser.on("closetag", () => {
    open.pop();
    const depth = open.length;
    if (depth === 0) {
      rootClosed = true;
      return;
    }
    if (item) {
      if (depth === 2) {
        const read = readItem(item.stack[0]!, item.line, item.nodes > MAX_NODES_PER_ITEM);
        item = undefined;
        itemsRead.add(read);
      } else if (item.stack.length === depth - 1) {
        // The element closing is the innermost one kept (those past the Item's limit are not).
        item.stack.pop();
      }
      return;
    }
    if (depth === 1 && headerNode && !header) settleHeader();
  });

  await streamXml(source, parser, {
    maxBytes: limits.maxBytes,
    standard: "PIES",
    rootClosed: () => rootClosed,
    openElement: () => open.at(-1),
    afterChunk: itemsRead.tell,
  });
  return { header: settleHeader(), items };
}

/** The Item's elements as the import takes them, with the first problem found. */
function readItem(node: Node, line: number, tooLarge: boolean): PiesItem {
  const partNumber = (textOf(child(node, "PartNumber")) ?? "").slice(0, 100);
  const out: PiesItem = { line, partNumber, partKey: normalizePartNumber(partNumber) };
  const problems: PiesItemProblem[] = [];
  const bad = (message: string) => problems.push({ kind: "bad_value", message });

  if (tooLarge) bad(`The item has more than ${formatCount(MAX_NODES_PER_ITEM)} elements`);
  const maintenance = (node.attrs.MaintenanceType ?? "").trim().toUpperCase();
  if (maintenance === "D") {
    bad('MaintenanceType "D" (delete) is not imported: the store removes a part on its page');
  }
  if (!partNumber) bad("The item has no PartNumber");
  else if (partNumber.length > MAX_PART_NUMBER_LENGTH || !PART_NUMBER.test(partNumber)) {
    bad(
      `PartNumber "${partNumber.slice(0, 50)}" is not a part number we take: up to ${MAX_PART_NUMBER_LENGTH} letters, digits, spaces, dashes, dots or slashes`,
    );
  }

  const brandCode = textOf(child(node, "BrandAAIAID"))?.toUpperCase();
  if (!brandCode) bad("The item has no BrandAAIAID");
  else if (!BRAND_CODE.test(brandCode)) {
    bad(`BrandAAIAID "${brandCode.slice(0, 30)}" is not a brand code (1 to 20 letters or digits)`);
  } else out.brandCode = brandCode;
  const brandLabel = textOf(child(node, "BrandLabel"));
  if (brandLabel) out.brandLabel = cut(brandLabel, MAX_BRAND_LENGTH);

  // Descriptions: DES is the name; SHO, else MKT, else EXT the short description.
  const descriptions = children(child(node, "Descriptions"), "Description").filter((d) => {
    const lang = (d.attrs.LanguageCode ?? "").trim().toUpperCase();
    return lang === "" || lang.startsWith("EN");
  });
  const description = (code: string) =>
    textOf(descriptions.find((d) => (d.attrs.DescriptionCode ?? "").trim().toUpperCase() === code));
  const name = description("DES");
  if (name) out.name = cut(name.replace(/\s+/g, " "), MAX_PRODUCT_NAME_LENGTH);
  const short = description("SHO") ?? description("MKT") ?? description("EXT");
  if (short) out.description = cut(short, MAX_DESCRIPTION_LENGTH);

  const group = textOf(child(child(node, "ManufacturerProductCodes"), "ProductGroupCode"));
  if (group) {
    out.productGroup = group.slice(0, 60);
    out.category = categoryByName.get(group.toLowerCase());
  }

  const moq = textOf(child(node, "MinimumOrderQuantity"));
  if (moq !== undefined) {
    const n = DECIMAL.test(moq) ? Number(moq) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_QUANTITY) {
      bad(`MinimumOrderQuantity "${moq.slice(0, 20)}" is not a whole number from 1 to 10,000,000`);
    } else out.minimumOrder = n;
  }

  const list = children(child(node, "Prices"), "Pricing").find(
    (p) => (p.attrs.PriceType ?? "").trim().toUpperCase() === "LST",
  );
  if (list) {
    const currency = (textOf(child(list, "CurrencyCode")) ?? "USD").toUpperCase();
    const price = textOf(child(list, "Price"));
    const n = price !== undefined && DECIMAL.test(price) ? Number(price) : NaN;
    if (currency !== "USD") {
      bad(`The list price is in ${currency.slice(0, 10)}: only USD prices are imported`);
    } else if (!Number.isFinite(n) || n >= MAX_PRICE) {
      bad(`Price "${(price ?? "").slice(0, 20)}" is not a price from 0 to 999,999.99`);
    } else out.listPriceCents = Math.round(n * 100);
  }

  const attributes = child(node, "ProductAttributes");
  if (attributes) {
    out.attributes = [];
    const seen = new Set<string>();
    for (const a of children(attributes, "ProductAttribute")) {
      const attrName = (a.attrs.AttributeID ?? "").trim();
      const unit = (a.attrs.AttributeUOM ?? "").trim() || null;
      const value = a.text.trim();
      if (!attrName || attrName.length > MAX_ATTRIBUTE_NAME) {
        bad(
          `ProductAttribute AttributeID "${attrName.slice(0, 70)}" is not 1 to ${MAX_ATTRIBUTE_NAME} characters`,
        );
        continue;
      }
      if (unit && unit.length > MAX_ATTRIBUTE_UNIT) {
        bad(
          `${attrName}'s AttributeUOM "${unit.slice(0, 20)}" is longer than ${MAX_ATTRIBUTE_UNIT} characters`,
        );
        continue;
      }
      if (!value || value.length > MAX_ATTRIBUTE_TEXT) {
        bad(`${attrName}'s value is not 1 to ${MAX_ATTRIBUTE_TEXT} characters`);
        continue;
      }
      // One value per attribute: the first the file gives.
      if (seen.has(attrName.toLowerCase())) continue;
      seen.add(attrName.toLowerCase());
      out.attributes.push({ name: attrName, unit, value });
    }
  }

  readPackage(child(child(node, "Packages"), "Package"), out, bad);

  const interchangeInfo = child(node, "PartInterchangeInfo");
  if (interchangeInfo) {
    out.interchange = [];
    const seen = new Set<string>();
    for (const pi of children(interchangeInfo, "PartInterchange")) {
      const label = (pi.attrs.BrandLabel ?? textOf(child(pi, "BrandLabel")) ?? "").trim();
      const code = (pi.attrs.BrandAAIAID ?? textOf(child(pi, "BrandAAIAID")) ?? "").trim();
      const brand = cut(label || code, MAX_BRAND_LENGTH);
      const kind: CrossReferenceKind = OE_BRAND.test(label) ? "OE" : "competitor";
      for (const pn of children(pi, "PartNumber")) {
        const number = pn.text.trim();
        if (!brand) {
          bad(`Interchange number "${number.slice(0, 50)}" has no BrandLabel or BrandAAIAID`);
          continue;
        }
        if (!number || number.length > MAX_PART_NUMBER_LENGTH || !PART_NUMBER.test(number)) {
          bad(`Interchange number "${number.slice(0, 50)}" is not a part number we take`);
          continue;
        }
        const key = `${kind}:${normalizePartNumber(number)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.interchange.push({ kind, brand, number });
      }
    }
    if (out.interchange.length > MAX_CROSS_REFERENCES) {
      bad(
        `The item has ${out.interchange.length} interchange numbers: a part takes at most ${MAX_CROSS_REFERENCES}`,
      );
    }
  }

  const digital = child(node, "DigitalAssets");
  if (digital) {
    out.assets = [];
    const seen = new Set<string>();
    for (const d of children(digital, "DigitalFileInformation")) {
      const uri = textOf(child(d, "URI"));
      const fileName = textOf(child(d, "FileName"));
      // An asset delivered as a file beside the PIES file has no address: nothing to link to.
      if (!uri) continue;
      if (!isHttpsAddress(uri)) {
        problems.push({
          kind: "bad_asset",
          message: `Asset "${(fileName ?? uri).slice(0, 80)}" is not at an https address: ${uri.slice(0, 100)}`,
        });
        continue;
      }
      if (seen.has(uri)) continue;
      seen.add(uri);
      const type = (textOf(child(d, "AssetType")) ?? "").toUpperCase();
      const file = (fileName ?? new URL(uri).pathname).toLowerCase();
      const picture = /^P\d\d$/.test(type) || /\.(jpe?g|png|gif|webp|tiff?)$/.test(file);
      const document = type === "INS" || /\.pdf$/.test(file);
      const title = textOf(child(d, "AssetDescription")) ?? fileName;
      out.assets.push({
        kind: picture && !document ? "image" : "document",
        title: cut(title ?? (picture ? "Picture" : "Document"), 120),
        url: uri,
      });
    }
  }

  if (problems[0]) out.problem = problems[0];
  return out;
}

/** An https address a browser can follow (the table takes at most 2,000 characters). */
function isHttpsAddress(uri: string): boolean {
  if (uri.length > MAX_IMAGE_LINK_LENGTH || !/^https:\/\/\S+$/.test(uri)) return false;
  try {
    return new URL(uri).hostname !== "";
  } catch {
    return false;
  }
}

/** The first Package: its dimensions (shipping, else merchandising) in mm and weight in g. */
function readPackage(pkg: Node | undefined, out: PiesItem, bad: (message: string) => void) {
  if (!pkg) return;
  const dims = child(pkg, "Dimensions");
  if (dims) {
    const uom = (dims.attrs.UOM ?? "").trim().toUpperCase();
    const side = (prefix: string, side: string) => textOf(child(dims, `${prefix}${side}`));
    const prefix = ["Shipping", "Merchandising"].find(
      (p) => side(p, "Height") || side(p, "Width") || side(p, "Length"),
    );
    const factor = MM_PER[uom];
    if (prefix && factor === undefined) {
      bad(`Dimensions UOM "${uom.slice(0, 10)}" is none of IN, CM or MM`);
    } else if (prefix) {
      const mm = (s: string) => {
        const raw = side(prefix, s);
        const n = raw !== undefined && DECIMAL.test(raw) ? Math.round(Number(raw) * factor!) : NaN;
        if (!(n >= 1 && n <= MAX_DIMENSION_MM)) {
          bad(`${prefix}${s} "${(raw ?? "").slice(0, 20)}" is not a size from 1 to 10,000 mm`);
          return undefined;
        }
        return n;
      };
      const [heightMm, widthMm, lengthMm] = [mm("Height"), mm("Width"), mm("Length")];
      if (heightMm && widthMm && lengthMm) out.dimensions = { lengthMm, widthMm, heightMm };
    }
  }
  const weights = child(pkg, "Weights");
  const weight = textOf(child(weights, "Weight"));
  if (weights && weight !== undefined) {
    const uom = (weights.attrs.UOM ?? "").trim().toUpperCase();
    const factor = GRAMS_PER[uom];
    const grams = DECIMAL.test(weight) && factor ? Math.round(Number(weight) * factor) : NaN;
    if (factor === undefined) bad(`Weights UOM "${uom.slice(0, 10)}" is none of LB, KG, GR or OZ`);
    else if (!(grams >= 0 && grams <= MAX_WEIGHT_GRAMS)) {
      bad(`Weight "${weight.slice(0, 20)}" is not a weight up to 1,000,000 g`);
    } else out.weightGrams = grams;
  }
}
