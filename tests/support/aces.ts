/** One application of a test ACES file (attributes as ACES 4.2 names them). */
export interface TestApp {
  id: string;
  action?: "A" | "D";
  baseVehicle?: number;
  make?: number;
  model?: number;
  years?: [number, number];
  subModel?: number;
  engineConfig?: number;
  /** Written as the Qty's text; absent: no Qty element. */
  qty?: string | number;
  part?: string;
  notes?: string[];
  /** Other elements of the App, as written ("<EngineBase id=\"1\"/>"). */
  extra?: string;
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/**
 * An ACES 4.2 file for tests: the header names `brand`, then each application on lines of its
 * own (`lineOf` tells where each App's tag is).
 */
export function acesXml(
  brand: string,
  apps: TestApp[],
): { xml: string; lineOf(id: string): number } {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ACES version="4.2">',
    "  <Header>",
    `    <BrandAAIAID>${escape(brand)}</BrandAAIAID>`,
    "    <SubmissionType>FULL</SubmissionType>",
    "  </Header>",
  ];
  const at = new Map<string, number>();
  for (const a of apps) {
    at.set(a.id, lines.length + 1);
    lines.push(`  <App action="${a.action ?? "A"}" id="${escape(a.id)}">`);
    if (a.baseVehicle !== undefined) lines.push(`    <BaseVehicle id="${a.baseVehicle}"/>`);
    if (a.make !== undefined) lines.push(`    <Make id="${a.make}"/>`);
    if (a.model !== undefined) lines.push(`    <Model id="${a.model}"/>`);
    if (a.years) lines.push(`    <Years from="${a.years[0]}" to="${a.years[1]}"/>`);
    if (a.subModel !== undefined) lines.push(`    <SubModel id="${a.subModel}"/>`);
    if (a.engineConfig !== undefined) lines.push(`    <EngineConfig id="${a.engineConfig}"/>`);
    if (a.extra) lines.push(`    ${a.extra}`);
    for (const n of a.notes ?? []) lines.push(`    <Note>${escape(n)}</Note>`);
    if (a.qty !== undefined) lines.push(`    <Qty>${escape(String(a.qty))}</Qty>`);
    if (a.part !== undefined) lines.push(`    <Part>${escape(a.part)}</Part>`);
    lines.push("  </App>");
  }
  lines.push("</ACES>", "");
  return { xml: lines.join("\n"), lineOf: (id) => at.get(id)! };
}
