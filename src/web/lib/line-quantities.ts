import { z } from "zod";

// Forms that take a quantity per order line (a return, a shipment): the quantities are an array
// in the order of the lines shown, each between 0 and what the line allows.

/** The form's quantities: what was typed, as numbers (NaN where it is not one). */
export const lineQuantitiesSchema = z.array(z.number().or(z.nan()));

/** register()'s options for a quantity box: an empty box counts as 0. */
export const quantityField = {
  setValueAs: (typed: string | number) => (typed === "" ? 0 : Number(typed)),
};

/**
 * The lines with a quantity, as a request lists them, from a schema's refinement: each quantity
 * out of range gets "Between 0 and N" beside it (path `qty.i`), and `inRange` says none did.
 */
export function chosenLines(
  qty: readonly number[],
  lines: readonly { line: number; max: number }[],
  ctx: z.RefinementCtx,
) {
  let inRange = true;
  const chosen = lines.flatMap((l, i) => {
    const n = qty[i] ?? 0;
    if (!Number.isInteger(n) || n < 0 || n > l.max) {
      inRange = false;
      ctx.addIssue({ code: "custom", path: ["qty", i], message: `Between 0 and ${l.max}` });
      return [];
    }
    return n > 0 ? [{ line: l.line, qty: n }] : [];
  });
  return { chosen, inRange };
}
