import { and, eq, inArray } from "drizzle-orm";
import {
  attributeMessages,
  MAX_ATTRIBUTE_TEXT,
  type AttributeDefinition,
} from "../../../contract/attributes";
import type { ProductCategory } from "../../../contract/constants";
import type { DbOrTx } from "../../db/database";
import { sql } from "../../db/sql";
import { attributeDefinitionColumns, attributeDefinitions, productAttributes } from "./tables";

/**
 * The attributes module alone writes attribute definitions and products' values
 * (docs/attributes.md). The product screen, the product CSV and the PIES import go through here.
 */

/** A value ready to store: a number as PostgreSQL's numeric text, or a text. */
export type StoredValue =
  { numberValue: string; textValue: null } | { numberValue: null; textValue: string };

/** A number such as "280", "11.5" or "-0.25" (a comma as decimal mark is taken too). */
const NUMBER = /^-?\d{1,12}(\.\d{1,6})?$/;

/**
 * `raw` checked against its definition: a number for numbers, one of the choices (in any case,
 * stored as defined) for choices, 1–200 characters for texts. Answers the message when it is not.
 */
export function parseAttributeValue(
  def: Pick<AttributeDefinition, "name" | "kind" | "choices">,
  raw: string,
): StoredValue | { error: string } {
  const value = raw.trim();
  if (def.kind === "number") {
    const n = value.replace(",", ".");
    if (!NUMBER.test(n)) return { error: attributeMessages.notANumber(def.name) };
    return { numberValue: n, textValue: null };
  }
  if (def.kind === "choice") {
    const choice = def.choices.find((c) => c.toLowerCase() === value.toLowerCase());
    if (!choice) return { error: attributeMessages.notAChoice(def.name, def.choices) };
    return { numberValue: null, textValue: choice };
  }
  if (value.length < 1 || value.length > MAX_ATTRIBUTE_TEXT) {
    return { error: attributeMessages.text(def.name) };
  }
  return { numberValue: null, textValue: value };
}

/** The category's definitions, in their order. */
export async function definitionsOf(
  tx: DbOrTx,
  category: ProductCategory,
): Promise<AttributeDefinition[]> {
  return tx
    .select(attributeDefinitionColumns)
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.category, category))
    .orderBy(attributeDefinitions.position, attributeDefinitions.name);
}

/**
 * Definitions a file names that its category lacks, added at the end (an import's attributes:
 * a number with a unit when the file gives one, else text). Answers every definition of the
 * category afterwards. Names match in any case; an existing one is never changed.
 */
export async function ensureDefinitions(
  tx: DbOrTx,
  category: ProductCategory,
  wanted: { name: string; kind: "number" | "text"; unit: string | null }[],
): Promise<AttributeDefinition[]> {
  const existing = await definitionsOf(tx, category);
  const known = new Set(existing.map((d) => d.name.toLowerCase()));
  const seen = new Set<string>();
  const missing = wanted.filter((w) => {
    const key = w.name.toLowerCase();
    if (known.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (missing.length === 0) return existing;
  const next = existing.reduce((max, d) => Math.max(max, d.position + 1), 0);
  await tx
    .insert(attributeDefinitions)
    .values(
      missing.map((m, i) => ({
        category,
        name: m.name,
        kind: m.kind,
        unit: m.kind === "number" ? m.unit : null,
        position: next + i,
      })),
    )
    .onConflictDoNothing();
  return definitionsOf(tx, category);
}

/**
 * A product's values replaced by `values` (checked already, one per attribute): attributes not in
 * `values` lose their value. `only` limits the replacement to those attributes (a CSV with some
 * attribute columns leaves the others as they are).
 */
export async function replaceProductAttributes(
  tx: DbOrTx,
  productId: string,
  values: ({ attributeId: string } & StoredValue)[],
  only?: string[],
): Promise<void> {
  const scope = only
    ? and(
        eq(productAttributes.productId, productId),
        only.length > 0 ? inArray(productAttributes.attributeId, only) : sql`false`,
      )
    : eq(productAttributes.productId, productId);
  await tx.delete(productAttributes).where(scope);
  if (values.length === 0) return;
  await tx
    .insert(productAttributes)
    .values(values.map((v) => ({ productId, ...v })))
    .onConflictDoUpdate({
      target: [productAttributes.productId, productAttributes.attributeId],
      set: {
        numberValue: sql`excluded.number_value`,
        textValue: sql`excluded.text_value`,
      },
    });
}

type DefinitionColumns = Pick<
  AttributeDefinition,
  "category" | "name" | "kind" | "unit" | "choices" | "position" | "filterable"
>;

/** A new definition (an admin's; checked already). A name taken in any case: unique violation. */
export async function insertDefinition(
  tx: DbOrTx,
  def: DefinitionColumns,
): Promise<AttributeDefinition> {
  const [row] = await tx
    .insert(attributeDefinitions)
    .values(def)
    .returning(attributeDefinitionColumns);
  return row!;
}

/** A definition's name, unit, choices, position or filterable changed (its kind never). */
export async function updateDefinition(
  tx: DbOrTx,
  id: string,
  set: Partial<Pick<AttributeDefinition, "name" | "unit" | "choices" | "position" | "filterable">>,
): Promise<AttributeDefinition | undefined> {
  const [row] = await tx
    .update(attributeDefinitions)
    .set(set)
    .where(eq(attributeDefinitions.id, id))
    .returning(attributeDefinitionColumns);
  return row;
}

/** A definition removed with every product's value of it (the foreign key cascades). */
export async function deleteDefinition(tx: DbOrTx, id: string): Promise<void> {
  await tx.delete(attributeDefinitions).where(eq(attributeDefinitions.id, id));
}
