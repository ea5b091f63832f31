import { plural } from "../../../contract/count";
import { and, asc, eq, inArray } from "drizzle-orm";
import { sql } from "../../db/sql";
import { advisoryLocks, lockWithin } from "../../db/advisory-locks";
import {
  attributeMessages as say,
  MAX_ATTRIBUTES_PER_CATEGORY,
  type AdminAttributeDefinition,
  type AttributeChange,
  type AttributeCreate,
  type AttributeDefinition,
  type AttributeListQuery,
  type ProductAttribute,
  type ProductAttributeValues,
} from "../../../contract/attributes";
import { productCategories, type ProductCategory } from "../../../contract/constants";
import { recordAdminAction, type AuditActor } from "../../audit/service";
import type { Db, DbOrTx } from "../../db/database";
import { PG, postgresError } from "../../db/postgres-errors";
import { conflict, fieldError, notFound } from "../../errors";
import { products } from "../tables";
import { attributesOfProduct } from "./reads";
import { attributeDefinitionColumns, attributeDefinitions, productAttributes } from "./tables";
import {
  definitionsOf,
  deleteDefinition,
  insertDefinition,
  parseAttributeValue,
  replaceProductAttributes,
  updateDefinition,
  type StoredValue,
} from "./writes";

/*
 * Attribute definitions for admins, and a product's values (docs/attributes.md). Every change is
 * one transaction with its audit row; the tables' trigger (migration 0057) tells every process's
 * catalog cache. Writes go through writes.ts, the module's one writer.
 */

type Tx = DbOrTx;

/** Categories in the contract's order (the admin's select lists them so). */
const categoryOrder = sql`array_position(${sql.raw(
  `array[${productCategories.map((c) => `'${c}'`).join(",")}]`,
)}::text[], ${attributeDefinitions.category})`;

/** How many parts have a value of each of these attributes. */
async function usesOf(db: DbOrTx, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: productAttributes.attributeId, n: sql<number>`count(*)::int` })
    .from(productAttributes)
    .where(inArray(productAttributes.attributeId, ids))
    .groupBy(productAttributes.attributeId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** The definition, locked for the change; 404 when it is gone. */
async function locked(tx: Tx, id: string): Promise<AttributeDefinition> {
  const [row] = await tx
    .select(attributeDefinitionColumns)
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.id, id))
    .for("update");
  if (!row) throw notFound(say.notFound);
  return row;
}

/** 409 when another attribute of the category has the name, in any case. */
async function checkName(tx: Tx, category: ProductCategory, name: string, id?: string) {
  const [taken] = await tx
    .select({ name: attributeDefinitions.name })
    .from(attributeDefinitions)
    .where(
      and(
        eq(attributeDefinitions.category, category),
        sql`lower(${attributeDefinitions.name}) = lower(${name})`,
        id ? sql`${attributeDefinitions.id} <> ${id}` : undefined,
      ),
    );
  if (taken) throw conflict(say.taken(taken.name, category));
}

/** A duplicate name that a concurrent change won (the unique index): 409, not 500. */
async function orTaken<T>(work: () => Promise<T>, name: string, category: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (postgresError(err)?.code === PG.uniqueViolation) throw conflict(say.taken(name, category));
    throw err;
  }
}

/** "Diameter (number, mm)", "Vent type (choice: Solid, Vented)": a definition in the audit log. */
function described(d: Pick<AttributeDefinition, "name" | "kind" | "unit" | "choices">) {
  const detail =
    d.kind === "choice"
      ? `choice: ${d.choices.join(", ")}`
      : d.kind === "number" && d.unit
        ? `number, ${d.unit}`
        : d.kind;
  return `${d.name} (${detail})`;
}

const audit = (tx: Tx, actor: AuditActor, verb: string, id: string, summary: string) =>
  recordAdminAction(tx, {
    actor,
    action: `attribute.${verb}`,
    target: { type: "attribute", id },
    summary,
  });

export function createAttributeService(db: Db) {
  return {
    /** The definitions of a category (all, without one), in order. */
    async list(query: AttributeListQuery): Promise<AttributeDefinition[]> {
      if (query.category) return definitionsOf(db, query.category);
      return db
        .select(attributeDefinitionColumns)
        .from(attributeDefinitions)
        .orderBy(categoryOrder, asc(attributeDefinitions.position), asc(attributeDefinitions.name));
    },

    /** The same, each with how many parts have a value for it (the admin's table). */
    async table(query: AttributeListQuery): Promise<AdminAttributeDefinition[]> {
      const defs = await this.list(query);
      const uses = await usesOf(
        db,
        defs.map((d) => d.id),
      );
      return defs.map((d) => ({ ...d, usedBy: uses.get(d.id) ?? 0 }));
    },

    async create(actor: AuditActor, input: AttributeCreate): Promise<AttributeDefinition> {
      return orTaken(
        () =>
          db.transaction(async (tx) => {
            // One change to a category's list at a time: its count and positions stay right.
            await tx.execute(lockWithin(advisoryLocks.perAttributeCategory, input.category));
            const existing = await definitionsOf(tx, input.category);
            if (existing.length >= MAX_ATTRIBUTES_PER_CATEGORY) {
              throw conflict(say.tooMany(input.category));
            }
            await checkName(tx, input.category, input.name);
            const def = await insertDefinition(tx, {
              category: input.category,
              name: input.name,
              kind: input.kind,
              unit: input.kind === "number" ? (input.unit ?? null) : null,
              choices: input.kind === "choice" ? (input.choices ?? []) : [],
              position: existing.reduce((max, d) => Math.max(max, d.position + 1), 0),
              filterable: input.filterable ?? true,
            });
            await audit(tx, actor, "add", def.id, `Added ${described(def)} to ${def.category}`);
            return def;
          }),
        input.name,
        input.category,
      );
    },

    async change(
      actor: AuditActor,
      id: string,
      input: AttributeChange,
    ): Promise<AttributeDefinition> {
      return db.transaction(async (tx) => {
        const before = await locked(tx, id);
        if (input.unit != null && before.kind !== "number") throw fieldError("unit", say.unit);
        if (input.choices !== undefined && before.kind !== "choice") {
          throw fieldError("choices", say.choices);
        }
        if (input.name !== undefined) await checkName(tx, before.category, input.name, id);
        if (input.choices !== undefined) {
          const removed = before.choices.filter((c) => !input.choices!.includes(c));
          if (removed.length > 0) {
            const used = await tx
              .select({ choice: productAttributes.textValue, n: sql<number>`count(*)::int` })
              .from(productAttributes)
              .where(
                and(
                  eq(productAttributes.attributeId, id),
                  inArray(productAttributes.textValue, removed),
                ),
              )
              .groupBy(productAttributes.textValue)
              .orderBy(productAttributes.textValue);
            const [first] = used;
            if (first) throw conflict(say.choiceInUse(first.choice!, first.n));
          }
        }
        const after = await orTaken(
          async () =>
            (await updateDefinition(tx, id, {
              ...(input.name !== undefined && { name: input.name }),
              ...(input.unit !== undefined && { unit: input.unit }),
              ...(input.choices !== undefined && { choices: input.choices }),
              ...(input.position !== undefined && { position: input.position }),
              ...(input.filterable !== undefined && { filterable: input.filterable }),
            }))!,
          input.name ?? before.name,
          before.category,
        );
        const words = (
          [
            ["name", before.name, after.name],
            ["unit", before.unit ?? "none", after.unit ?? "none"],
            ["choices", before.choices.join(", "), after.choices.join(", ")],
            ["position", String(before.position), String(after.position)],
            ["filterable", before.filterable ? "yes" : "no", after.filterable ? "yes" : "no"],
          ] as const
        )
          .filter(([, was, now]) => was !== now)
          .map(([label, was, now]) => `${label} ${was} → ${now}`)
          .join(", ");
        await audit(
          tx,
          actor,
          "change",
          id,
          `Changed ${before.category} attribute ${before.name}: ${words || "nothing"}`,
        );
        return after;
      });
    },

    /** Removes the definition and every part's value of it. */
    async remove(actor: AuditActor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const def = await locked(tx, id);
        const parts = (await usesOf(tx, [id])).get(id) ?? 0;
        await deleteDefinition(tx, id);
        await audit(
          tx,
          actor,
          "remove",
          id,
          `Removed ${def.category} attribute ${described(def)}; ${plural(parts, "part")} lost a value`,
        );
      });
    },

    /**
     * Replaces a product's values: each checked against its category's definitions (a blank
     * value is none). Answers the values as product answers carry them.
     */
    async setProductValues(
      actor: AuditActor,
      productId: string,
      input: ProductAttributeValues,
    ): Promise<ProductAttribute[]> {
      return db.transaction(async (tx) => {
        const [product] = await tx
          .select({
            name: products.name,
            partNumber: products.partNumber,
            category: products.category,
          })
          .from(products)
          .where(eq(products.id, productId))
          .for("update");
        if (!product) throw notFound("Product not found");
        const defs = new Map((await definitionsOf(tx, product.category)).map((d) => [d.id, d]));
        const given = input.values.filter((v) => v.value.trim() !== "");
        const stored: ({ attributeId: string } & StoredValue)[] = [];
        for (const v of given) {
          const def = defs.get(v.attributeId);
          if (!def) {
            const [other] = await tx
              .select({ name: attributeDefinitions.name })
              .from(attributeDefinitions)
              .where(eq(attributeDefinitions.id, v.attributeId));
            throw fieldError(
              v.attributeId,
              other ? say.otherCategory(other.name, product.category) : say.notFound,
            );
          }
          const parsed = parseAttributeValue(def, v.value);
          if ("error" in parsed) throw fieldError(v.attributeId, parsed.error);
          stored.push({ attributeId: def.id, ...parsed });
        }
        await replaceProductAttributes(tx, productId, stored);
        const attributes = await attributesOfProduct(tx, productId);
        const list = attributes
          .map((a) => `${a.name} ${a.value}${a.unit ? ` ${a.unit}` : ""}`)
          .join(", ");
        await recordAdminAction(tx, {
          actor,
          action: "product.attributes",
          target: { type: "product", id: productId },
          summary: `Set the attributes of ${product.name} (${product.partNumber}): ${list || "none"}`,
        });
        return attributes;
      });
    },
  };
}

export type AttributeService = ReturnType<typeof createAttributeService>;
