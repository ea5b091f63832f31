import path from "node:path";
import { createRequire } from "node:module";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

// pdf.js's own copies of the 14 standard fonts' data, so it reads the text without asking for them.
const standardFontDataUrl = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts",
)}/`;

/** A PDF opened by pdf.js (no scripts, no warnings); the caller destroys it. */
const openPdf = (bytes: Uint8Array) =>
  getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;

/**
 * The text of a PDF as a reader extracts it (pdf.js, Firefox's PDF reader): one string per page,
 * its pieces joined by spaces. Fails on anything that is not a well-formed PDF.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: string[]; text: string }> {
  const pdf = await openPdf(bytes);
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(
      content.items
        .map((item) => ("str" in item ? item.str : ""))
        .filter((s) => s.trim() !== "")
        .join(" "),
    );
  }
  await pdf.destroy();
  return { pages, text: pages.join("\n") };
}

/** A piece of text drawn on a page: what it says and the box its glyphs take, in points. */
export interface TextBox {
  text: string;
  page: number;
  left: number;
  right: number;
  bottom: number;
  top: number;
}

// Helvetica's descender and ascender, as fractions of the font size (its AFM: -207 and 718).
const DESCENT = 0.207;
const ASCENT = 0.718;

/**
 * Every text-showing operation of a PDF with its box, read from the pages' content streams as
 * pdf.js interprets them (the font size, the text matrix, each glyph's width from the font's
 * metrics). Unlike the extracted text, nothing is merged: two strings drawn over each other are
 * two boxes. Handles what pdf-lib writes (no rotation or scaling of text).
 */
export async function pdfTextBoxes(bytes: Uint8Array): Promise<TextBox[]> {
  const pdf = await openPdf(bytes);
  const boxes: TextBox[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const { fnArray, argsArray } = await (await pdf.getPage(n)).getOperatorList();
    let size = 0;
    let x = 0;
    let y = 0;
    fnArray.forEach((fn, i) => {
      const args = argsArray[i] as unknown[];
      if (fn === OPS.setFont) size = args[1] as number;
      else if (fn === OPS.setTextMatrix) {
        const m = args[0] as Record<number, number>;
        x = m[4]!;
        y = m[5]!;
      } else if (fn === OPS.showText) {
        const glyphs = (args[0] as ({ unicode: string; width: number } | number)[]).filter(
          (g) => typeof g !== "number",
        );
        const width = glyphs.reduce((sum, g) => sum + (g.width * size) / 1000, 0);
        boxes.push({
          text: glyphs.map((g) => g.unicode).join(""),
          page: n,
          left: x,
          right: x + width,
          bottom: y - DESCENT * size,
          top: y + ASCENT * size,
        });
        x += width;
      }
    });
  }
  await pdf.destroy();
  return boxes;
}

/** The pairs of boxes on one page that share any area (touching edges do not count). */
export function overlappingBoxes(boxes: TextBox[]): [TextBox, TextBox][] {
  const pairs: [TextBox, TextBox][] = [];
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) {
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.top, b.top) - Math.max(a.bottom, b.bottom);
      if (a.page === b.page && w > 0.01 && h > 0.01) pairs.push([a, b]);
    }
  });
  return pairs;
}
