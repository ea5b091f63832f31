// `--against`: a benchmark's key figures for the working tree and for REV side by side, with the
// ratio working tree ÷ REV.
import { describeBuild, round, type StoreBuild } from "./harness";

/** One key figure of a benchmark's result. */
export interface Figure {
  name: string;
  value: number;
  /** Which way is better, so a ratio reads at a glance (above 1 is better only for "higher"). */
  better: "higher" | "lower";
}

export interface ComparedFigure {
  name: string;
  better: Figure["better"];
  workingTree: number;
  revision: number;
  /** working tree ÷ revision; null when the revision's figure is 0 (or either is missing). */
  ratio: number | null;
}

/** The figures both sides have, in the working tree's order, with their ratios. */
export function compareFigures(ours: Figure[], theirs: Figure[]): ComparedFigure[] {
  return ours.flatMap((o) => {
    const t = theirs.find((f) => f.name === o.name);
    if (!t) return [];
    const ratio = t.value !== 0 && Number.isFinite(o.value / t.value) ? o.value / t.value : null;
    return [
      {
        name: o.name,
        better: o.better,
        workingTree: o.value,
        revision: t.value,
        ratio: ratio === null ? null : round(ratio, 2),
      },
    ];
  });
}

/** The table `npm run bench -- --against REV` prints after a benchmark's own output. */
export function formatComparison(
  revision: StoreBuild,
  rows: ComparedFigure[],
  baseline: Omit<Figure, "better">[],
): string {
  const them = describeBuild(revision);
  const width = Math.max(...rows.map((r) => r.name.length), 6) + 2;
  const lines = [
    `working tree ÷ ${them}:`,
    `  ${"figure".padEnd(width)}${"working tree".padStart(13)}${them.padStart(Math.max(them.length, 10) + 2)}   ratio`,
    ...rows.map(
      (r) =>
        `  ${r.name.padEnd(width)}${String(r.workingTree).padStart(13)}${String(r.revision).padStart(Math.max(them.length, 10) + 2)}   ${(r.ratio === null ? "—" : r.ratio.toFixed(2)).padEnd(5)}  (${r.better} is better)`,
    ),
  ];
  if (baseline.length > 0) {
    lines.push(
      `  baseline in the same run: ${baseline.map((b) => `${b.name} ${b.value}`).join("; ")}`,
    );
  }
  return lines.join("\n");
}
