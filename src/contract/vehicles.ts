import { z } from "zod";
import { text } from "./text";

// Vehicles, fitment, the VIN check and My garage (docs/decisions/010-vehicle-fitment.md).

export const MIN_VEHICLE_YEAR = 1900;
export const MAX_VEHICLE_YEAR = 2100;
/** A customer keeps at most this many vehicles in My garage. */
export const MAX_GARAGE_VEHICLES = 10;
export const VIN_LENGTH = 17;

export const vehicleMessages = {
  year: `Enter a model year between ${MIN_VEHICLE_YEAR} and ${MAX_VEHICLE_YEAR}`,
  id: "Malformed id",
  incomplete: "Choose the year, make and model together",
  unknownVehicle: "We do not know this vehicle: choose the year, make and model again",
  garageFull: `My garage holds at most ${MAX_GARAGE_VEHICLES} vehicles`,
  garageNotFound: "This vehicle is not in your garage",
} as const;

const year = z.coerce
  .number({ error: vehicleMessages.year })
  .int(vehicleMessages.year)
  .min(MIN_VEHICLE_YEAR, vehicleMessages.year)
  .max(MAX_VEHICLE_YEAR, vehicleMessages.year);
const id = z.coerce
  .number({ error: vehicleMessages.id })
  .int(vehicleMessages.id)
  .min(1, vehicleMessages.id)
  .max(2_147_483_647, vehicleMessages.id);

export const makesQuerySchema = z.object({ year });
export const modelsQuerySchema = z.object({ year, make: id });
export const enginesQuerySchema = z.object({ year, make: id, model: id });
/** A vehicle as the shopper chose it: year, make, model and perhaps the engine. */
export const vehicleQuerySchema = z.object({ year, make: id, model: id, engine: id.optional() });
export type VehicleQuery = z.infer<typeof vehicleQuerySchema>;

/**
 * The vehicle an order is for (docs/vehicle-on-line.md), as the shopper chose it: the catalog's
 * ids (year, make, model and perhaps engine), in a request body. The server names it from its
 * own tables; a name sent by the browser is never taken.
 */
const bodyId = z
  .number({ error: vehicleMessages.id })
  .int(vehicleMessages.id)
  .min(1, vehicleMessages.id)
  .max(2_147_483_647, vehicleMessages.id);
export const orderVehicleSchema = z
  .strictObject({
    year: z
      .number({ error: vehicleMessages.year })
      .int(vehicleMessages.year)
      .min(MIN_VEHICLE_YEAR, vehicleMessages.year)
      .max(MAX_VEHICLE_YEAR, vehicleMessages.year),
    make: bodyId,
    model: bodyId,
    engine: bodyId.optional(),
  })
  .describe("The vehicle the parts are for: the catalog's year, make, model and engine ids");
export type OrderVehicle = z.infer<typeof orderVehicleSchema>;

/** The same fields, all optional, for lists that a vehicle may filter (all three or none). */
export const optionalVehicleFields = {
  year: year.optional(),
  make: id.optional(),
  model: id.optional(),
  engine: id.optional(),
};
export const vehicleFieldsComplete = (q: {
  year?: number;
  make?: number;
  model?: number;
  engine?: number;
}) =>
  q.year === undefined && q.make === undefined && q.model === undefined && q.engine === undefined
    ? true
    : q.year !== undefined && q.make !== undefined && q.model !== undefined;

export const vehicleOptionSchema = z.object({ id: z.number().int(), name: z.string() });
export type VehicleOption = z.infer<typeof vehicleOptionSchema>;

export const yearsSchema = z.array(z.number().int());
export const vehicleOptionsSchema = z.array(vehicleOptionSchema);

/** A vehicle we know, in words: "2016 Volkswagen Golf 1.4 TSI". */
export const vehicleSchema = z.object({
  year: z.number().int(),
  make: vehicleOptionSchema,
  model: vehicleOptionSchema,
  engine: vehicleOptionSchema.optional(),
  label: z.string(),
});
export type Vehicle = z.infer<typeof vehicleSchema>;

/** One fitment row as the shopper reads it; null fields do not narrow the fit. */
export const fitmentDetailSchema = z.object({
  position: z.string().nullable(),
  quantity: z.number().int(),
  note: z.string().nullable(),
  /** Only with this engine (null: every engine). */
  engine: z.string().nullable(),
  /** Only this submodel (null: every submodel). */
  submodel: z.string().nullable(),
});
export type FitmentDetail = z.infer<typeof fitmentDetailSchema>;

/** Whether a product fits the chosen vehicle, with the rows that say how. */
export const productFitSchema = z.object({
  fits: z.boolean(),
  details: z.array(fitmentDetailSchema),
});
export type ProductFit = z.infer<typeof productFitSchema>;

/** The vehicles a product fits, grouped by make and model, the years as ranges. */
export const applicationGroupSchema = z.object({
  make: z.string(),
  model: z.string(),
  rows: z.array(
    fitmentDetailSchema.extend({
      /** e.g. "2013–2020" or "2016". */
      years: z.string(),
    }),
  ),
});
export const productFitmentSchema = z.object({
  applications: z.array(applicationGroupSchema),
  /** With a vehicle in the query: whether the product fits it. */
  vehicle: vehicleSchema.optional(),
  fit: productFitSchema.optional(),
});
export type ProductFitment = z.infer<typeof productFitmentSchema>;

export const productFitmentQuerySchema = z
  .object(optionalVehicleFields)
  .refine(vehicleFieldsComplete, vehicleMessages.incomplete);

export const vinParamsSchema = z.object({
  vin: text()
    .trim()
    .min(1, "Enter a VIN")
    .max(VIN_LENGTH, `A VIN has ${VIN_LENGTH} characters; this one is longer`),
});

/** What a valid VIN tells by itself; anything it does not tell is null and said so. */
export const vinDecodedSchema = z.object({
  vin: z.string(),
  /** The World Manufacturer Identifier: the first three characters. */
  wmi: z.string(),
  manufacturer: z.string().nullable(),
  /** The region of the world the WMI's first character names (ISO 3780). */
  region: z.string().nullable(),
  /** Our make for that manufacturer, where we have one. */
  make: vehicleOptionSchema.nullable(),
  year: z.number().int().nullable(),
  /** Plain sentences: what was decoded, and what could not be. */
  notes: z.array(z.string()),
});
export type VinDecoded = z.infer<typeof vinDecodedSchema>;

export const garageVehicleSchema = vehicleSchema.extend({ id: z.uuid() });
export type GarageVehicle = z.infer<typeof garageVehicleSchema>;
export const garageSchema = z.array(garageVehicleSchema);
export const garageAddSchema = z.strictObject({
  year: z.number().int().min(MIN_VEHICLE_YEAR).max(MAX_VEHICLE_YEAR),
  make: z.number().int().min(1).max(2_147_483_647),
  model: z.number().int().min(1).max(2_147_483_647),
  engine: z.number().int().min(1).max(2_147_483_647).optional(),
});
export const garageParamsSchema = z.object({ id: z.uuid({ message: "Malformed id" }) });

// --- Admin: a product's fitment as year ranges ---

export const MAX_FITMENT_RANGES = 100;
export const MAX_FITMENT_YEARS = 60;

export const fitmentRangeInputSchema = z
  .strictObject({
    make: z.number().int().min(1).max(2_147_483_647),
    model: z.number().int().min(1).max(2_147_483_647),
    yearFrom: z.number(vehicleMessages.year).int().min(MIN_VEHICLE_YEAR).max(MAX_VEHICLE_YEAR),
    yearTo: z.number(vehicleMessages.year).int().min(MIN_VEHICLE_YEAR).max(MAX_VEHICLE_YEAR),
    /** Only this engine; absent means every engine. */
    engine: z.number().int().min(1).max(2_147_483_647).optional(),
    position: text().trim().max(40, "Must be 40 characters or shorter").optional(),
    quantity: z.number().int().min(1, "At least 1").max(100, "At most 100").default(1),
    note: text().trim().max(120, "Must be 120 characters or shorter").optional(),
  })
  .refine((r) => r.yearFrom <= r.yearTo, { message: "The first year comes before the last" })
  .refine((r) => r.yearTo - r.yearFrom < MAX_FITMENT_YEARS, {
    message: `At most ${MAX_FITMENT_YEARS} years in one row`,
  });
export type FitmentRangeInput = z.infer<typeof fitmentRangeInputSchema>;

export const fitmentRangesInputSchema = z.strictObject({
  rows: z
    .array(fitmentRangeInputSchema)
    .max(MAX_FITMENT_RANGES, `At most ${MAX_FITMENT_RANGES} rows`),
});

export const fitmentRangeSchema = z.object({
  make: vehicleOptionSchema,
  model: vehicleOptionSchema,
  yearFrom: z.number().int(),
  yearTo: z.number().int(),
  engine: vehicleOptionSchema.nullable(),
  position: z.string().nullable(),
  quantity: z.number().int(),
  note: z.string().nullable(),
});
export type FitmentRange = z.infer<typeof fitmentRangeSchema>;
export const fitmentRangesSchema = z.object({ rows: z.array(fitmentRangeSchema) });
