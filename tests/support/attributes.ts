import type { AttributeDefinition } from "../../src/contract/attributes";

/** An attribute definition as it is made: everything but its id. */
type NewDefinition = Omit<AttributeDefinition, "id">;

/**
 * Two attributes of brake parts that tests of attribute values share: the diameter, a number in
 * millimetres (first), and the vent type, a choice of solid or vented (second); both filterable.
 */
export const brakeDiameter: NewDefinition = {
  category: "Brakes",
  name: "Diameter",
  kind: "number",
  unit: "mm",
  choices: [],
  position: 0,
  filterable: true,
};

export const brakeVentType: NewDefinition = {
  category: "Brakes",
  name: "Vent type",
  kind: "choice",
  unit: null,
  choices: ["Solid", "Vented"],
  position: 1,
  filterable: true,
};
