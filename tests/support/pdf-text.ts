import path from "node:path";
import { createRequire } from "node:module";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

// pdf.js's own copies of the 14 standard fonts' data, so it reads the text without asking for them.
const standardFontDataUrl = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts",
)}/`;

/**
 * The text of a PDF as a reader extracts it (pdf.js, Firefox's PDF reader): one string per page,
 * its pieces joined by spaces. Fails on anything that is not a well-formed PDF.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: string[]; text: string }> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
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
