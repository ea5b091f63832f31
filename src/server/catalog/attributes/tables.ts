import { sql } from "../../db/sql";
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, uuidPrimaryKey } from "../../db/columns";
import { productCategories } from "../../../contract/constants";
import { products } from "../tables";

/**
 * A typed attribute of one category's parts (docs/attributes.md): a number with its unit
 * ("Diameter", mm), free text, or one of a list of choices ("Vent type": Solid, Vented).
 */
export const attributeDefinitions = pgTable(
  "attribute_definitions",
  {
    id: uuidPrimaryKey(),
    category: text("category", { enum: productCategories }).notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["number", "text", "choice"] }).notNull(),
    /** Only for numbers: "mm", "kg", "V"; null for a count. */
    unit: text("unit"),
    /** Only for choices, in the order shown; empty for the other kinds. */
    choices: text("choices")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The order in which a part's attributes and the facets are listed. */
    position: integer("position").notNull().default(0),
    /** Offered as a filter on All products. */
    filterable: boolean("filterable").notNull().default(true),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    check("attribute_definitions_kind_valid", sql`${t.kind} in ('number', 'text', 'choice')`),
    check("attribute_definitions_name_length", sql`char_length(${t.name}) between 1 and 60`),
    check(
      "attribute_definitions_unit_only_numbers",
      sql`${t.unit} is null or (${t.kind} = 'number' and char_length(${t.unit}) between 1 and 12)`,
    ),
    check(
      "attribute_definitions_choices_only_choice",
      sql`(${t.kind} = 'choice') = (cardinality(${t.choices}) > 0)`,
    ),
    uniqueIndex("attribute_definitions_category_name_unique").on(t.category, sql`lower(${t.name})`),
  ],
);

/** A product's value of one attribute: a number (numbers) or a text (texts and choices). */
export const productAttributes = pgTable(
  "product_attributes",
  {
    productId: requiredUuidRef("product_id", () => products.id, "cascade"),
    attributeId: requiredUuidRef("attribute_id", () => attributeDefinitions.id, "cascade"),
    numberValue: numeric("number_value"),
    textValue: text("text_value"),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.attributeId] }),
    check(
      "product_attributes_one_value",
      sql`(${t.numberValue} is null) <> (${t.textValue} is null)`,
    ),
    check("product_attributes_text_length", sql`char_length(${t.textValue}) between 1 and 200`),
    // Facet counts and filters: the products with a value, by attribute and value.
    index("product_attributes_number_idx")
      .on(t.attributeId, t.numberValue, t.productId)
      .where(sql`${t.numberValue} is not null`),
    index("product_attributes_text_idx")
      .on(t.attributeId, t.textValue, t.productId)
      .where(sql`${t.textValue} is not null`),
  ],
);

/** A definition's columns as `AttributeDefinition` names them, for selects and returning. */
export const attributeDefinitionColumns = {
  id: attributeDefinitions.id,
  category: attributeDefinitions.category,
  name: attributeDefinitions.name,
  kind: attributeDefinitions.kind,
  unit: attributeDefinitions.unit,
  choices: attributeDefinitions.choices,
  position: attributeDefinitions.position,
  filterable: attributeDefinitions.filterable,
};
