import { plural } from "./count";
import { z } from "zod";
import { idParamsSchema, pagingQuery } from "./common";
import { csvRowErrorSchema } from "./product-csv";
import { shortText, text } from "./text";

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
export const garageParamsSchema = idParamsSchema;

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
    position: shortText(40).optional(),
    quantity: z.number().int().min(1, "At least 1").max(100, "At most 100").default(1),
    note: shortText(120).optional(),
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

// --- Admin: the vehicle database (docs/vehicles.md) ---

/** Names of makes, models, engines and submodels: trimmed, 1 to this many characters. */
export const MAX_VEHICLE_NAME = 60;
/** One request adds at most this many model years of a model. */
export const MAX_YEARS_PER_REQUEST = 50;
/** A base vehicle lists at most this many engines in one request. */
export const MAX_ENGINES_PER_REQUEST = 50;
/** The vehicle CSV holds at most this many rows. */
export const MAX_VEHICLE_CSV_ROWS = 50_000;
/** The largest vehicle CSV the upload takes (the server answers 413 beyond it). */
export const MAX_VEHICLE_CSV_BYTES = 10 * 1024 * 1024;
/** Admin table: rows per page (the API's default `limit`). */
export const VEHICLE_TABLE_PAGE_SIZE = 25;
const MAX_INT = 2_147_483_647;

export const vehicleAdminMessages = {
  nameRequired: "Enter a name",
  nameTooLong: `Must be ${MAX_VEHICLE_NAME} characters or shorter`,
  vcdbId: "Enter a whole number of 1 or more (or leave it empty)",
  liters: "Enter the displacement in litres, e.g. 1.4",
  fuel: "Must be 30 characters or shorter",
  yearsOrder: "The first year comes before the last",
  tooManyYears: `At most ${MAX_YEARS_PER_REQUEST} years at a time`,
  tooManyEngines: `At most ${MAX_ENGINES_PER_REQUEST} engines at a time`,
  vcdbOneYear: "A VCdb base vehicle id names one year: add the years one at a time to set it",
  nothingToChange: "Change at least one field",
  makeNotFound: "This make does not exist (any more)",
  modelNotFound: "This model does not exist (any more)",
  engineNotFound: "This engine does not exist (any more)",
  submodelNotFound: "This submodel does not exist (any more)",
  baseVehicleNotFound: "This vehicle does not exist (any more)",
  makeTaken: (name: string) => `There is already a make named ${name}`,
  modelTaken: (make: string, name: string) => `${make} already has a model named ${name}`,
  engineTaken: (name: string) => `There is already an engine named ${name}`,
  submodelTaken: (name: string) => `There is already a submodel named ${name}`,
  yearTaken: (year: number, make: string, model: string) =>
    `The ${year} ${make} ${model} is already listed`,
  yearsTaken: (label: string) => `${label}: these years are already listed with these engines`,
  vcdbTaken: (kind: string, id: number, holder: string) =>
    `VCdb ${kind} id ${id} already belongs to ${holder}`,
  importHasErrors: (n: number) =>
    `The file has ${plural(n, "error")}; check it, fix them and upload it again`,
  importRaced:
    "Someone changed the vehicles while the file was imported; nothing was imported. Upload it again.",
} as const;

const vehicleName = text({ error: vehicleAdminMessages.nameRequired })
  .trim()
  .min(1, vehicleAdminMessages.nameRequired)
  .max(MAX_VEHICLE_NAME, vehicleAdminMessages.nameTooLong);
/** A VCdb id: a whole number of 1 or more. */
export const vcdbIdSchema = z
  .number({ error: vehicleAdminMessages.vcdbId })
  .int(vehicleAdminMessages.vcdbId)
  .min(1, vehicleAdminMessages.vcdbId)
  .max(MAX_INT, vehicleAdminMessages.vcdbId);
/** Set on a create (absent: none); on a change, null clears it. */
const vcdbOnCreate = vcdbIdSchema.optional();
const vcdbOnChange = vcdbIdSchema.nullable().optional();
const recordId = z
  .number({ error: vehicleMessages.id })
  .int(vehicleMessages.id)
  .min(1, vehicleMessages.id)
  .max(MAX_INT, vehicleMessages.id);
const bodyYear = z
  .number({ error: vehicleMessages.year })
  .int(vehicleMessages.year)
  .min(MIN_VEHICLE_YEAR, vehicleMessages.year)
  .max(MAX_VEHICLE_YEAR, vehicleMessages.year);
/** Litres as the selector shows them: "1.4", "2", "1.33". */
export const LITERS_PATTERN = /^\d{1,2}(\.\d{1,3})?$/;
const liters = text().trim().regex(LITERS_PATTERN, vehicleAdminMessages.liters);
const fuel = text().trim().max(30, vehicleAdminMessages.fuel);
/** Empty text (a form's empty field) is "not given". */
const emptyAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);
const emptyAsNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema);
const someField = (o: object) => Object.values(o).some((v) => v !== undefined);
const changeRule = { message: vehicleAdminMessages.nothingToChange };

export const makeCreateSchema = z.strictObject({ name: vehicleName, vcdbMakeId: vcdbOnCreate });
export type MakeCreate = z.infer<typeof makeCreateSchema>;
export const makeChangeSchema = z
  .strictObject({ name: vehicleName.optional(), vcdbMakeId: vcdbOnChange })
  .refine(someField, changeRule);
export type MakeChange = z.infer<typeof makeChangeSchema>;

export const modelCreateSchema = z.strictObject({
  makeId: recordId,
  name: vehicleName,
  vcdbModelId: vcdbOnCreate,
});
export type ModelCreate = z.infer<typeof modelCreateSchema>;
export const modelChangeSchema = z
  .strictObject({ name: vehicleName.optional(), vcdbModelId: vcdbOnChange })
  .refine(someField, changeRule);
export type ModelChange = z.infer<typeof modelChangeSchema>;

export const engineCreateSchema = z.strictObject({
  name: vehicleName,
  liters: emptyAsAbsent(liters.optional()),
  fuel: emptyAsAbsent(fuel.optional()),
  vcdbEngineConfigId: vcdbOnCreate,
});
export type EngineCreate = z.infer<typeof engineCreateSchema>;
export const engineChangeSchema = z
  .strictObject({
    name: vehicleName.optional(),
    liters: emptyAsNull(liters.nullable().optional()),
    fuel: emptyAsNull(fuel.nullable().optional()),
    vcdbEngineConfigId: vcdbOnChange,
  })
  .refine(someField, changeRule);
export type EngineChange = z.infer<typeof engineChangeSchema>;

export const submodelCreateSchema = z.strictObject({
  name: vehicleName,
  vcdbSubmodelId: vcdbOnCreate,
});
export type SubmodelCreate = z.infer<typeof submodelCreateSchema>;
export const submodelChangeSchema = z
  .strictObject({ name: vehicleName.optional(), vcdbSubmodelId: vcdbOnChange })
  .refine(someField, changeRule);
export type SubmodelChange = z.infer<typeof submodelChangeSchema>;

const engineIds = z
  .array(recordId)
  .max(MAX_ENGINES_PER_REQUEST, vehicleAdminMessages.tooManyEngines);

/** Model years of one model, `yearFrom` to `yearTo`: one base vehicle per year. */
export const baseVehiclesCreateSchema = z
  .strictObject({
    modelId: recordId,
    yearFrom: bodyYear,
    yearTo: bodyYear,
    /** Engines each of these years was built with (none: the selector stops at the model). */
    engineIds: engineIds.default([]),
    /** Only for one year (`yearFrom` = `yearTo`). */
    vcdbBaseVehicleId: vcdbOnCreate,
  })
  .refine((b) => b.yearFrom <= b.yearTo, {
    path: ["yearTo"],
    message: vehicleAdminMessages.yearsOrder,
  })
  .refine((b) => b.yearTo - b.yearFrom < MAX_YEARS_PER_REQUEST, {
    path: ["yearTo"],
    message: vehicleAdminMessages.tooManyYears,
  })
  .refine((b) => b.vcdbBaseVehicleId === undefined || b.yearFrom === b.yearTo, {
    path: ["vcdbBaseVehicleId"],
    message: vehicleAdminMessages.vcdbOneYear,
  });
export type BaseVehiclesCreate = z.input<typeof baseVehiclesCreateSchema>;

/** A base vehicle's change: its year, its VCdb id, and its engines (the whole list). */
export const baseVehicleChangeSchema = z
  .strictObject({
    year: bodyYear.optional(),
    vcdbBaseVehicleId: vcdbOnChange,
    engineIds: engineIds.optional(),
  })
  .refine(someField, changeRule);
export type BaseVehicleChange = z.infer<typeof baseVehicleChangeSchema>;

export const vehicleRecordParamsSchema = z.object({
  id: z.coerce
    .number({ error: vehicleMessages.id })
    .int(vehicleMessages.id)
    .min(1, vehicleMessages.id)
    .max(MAX_INT, vehicleMessages.id),
});

export const vehicleTableQuerySchema = z.object({
  make: id.optional(),
  model: id.optional(),
  year: year.optional(),
  ...pagingQuery(VEHICLE_TABLE_PAGE_SIZE, { maxOffset: 1_000_000 }).shape,
});
export type VehicleTableQuery = z.infer<typeof vehicleTableQuerySchema>;

const namedWithVcdb = <K extends string>(key: K) =>
  z.object({ id: z.number().int(), name: z.string() }).extend({
    [key]: z.number().int().nullable(),
  } as Record<K, z.ZodNullable<z.ZodNumber>>);

export const adminMakeSchema = namedWithVcdb("vcdbMakeId");
export type AdminMake = z.infer<typeof adminMakeSchema>;
export const adminModelSchema = namedWithVcdb("vcdbModelId").extend({ makeId: z.number().int() });
export type AdminModel = z.infer<typeof adminModelSchema>;
export const adminEngineSchema = namedWithVcdb("vcdbEngineConfigId").extend({
  liters: z.string().nullable(),
  fuel: z.string().nullable(),
});
export type AdminEngine = z.infer<typeof adminEngineSchema>;
export const adminSubmodelSchema = namedWithVcdb("vcdbSubmodelId");
export type AdminSubmodel = z.infer<typeof adminSubmodelSchema>;

/** One model year of one model, with the ids VCdb knows it by and its engines. */
export const baseVehicleRowSchema = z.object({
  id: z.number().int(),
  year: z.number().int(),
  vcdbBaseVehicleId: z.number().int().nullable(),
  make: adminMakeSchema,
  model: adminModelSchema.omit({ makeId: true }),
  engines: z.array(adminEngineSchema.pick({ id: true, name: true, vcdbEngineConfigId: true })),
});
export type BaseVehicleRow = z.infer<typeof baseVehicleRowSchema>;

/** Everything the admin screen names: makes with their models, engines and submodels. */
export const vehicleNamesSchema = z.object({
  makes: z.array(adminMakeSchema.extend({ models: z.array(adminModelSchema) })),
  engines: z.array(adminEngineSchema),
  submodels: z.array(adminSubmodelSchema),
});
export type VehicleNames = z.infer<typeof vehicleNamesSchema>;

/** What adding model years did. */
export const baseVehiclesAddedSchema = z.object({
  /** The base vehicles made, by year. */
  created: z.array(baseVehicleRowSchema),
  /** Years that were there already (their engines were added to). */
  existing: z.array(z.number().int()),
});
export type BaseVehiclesAdded = z.infer<typeof baseVehiclesAddedSchema>;

// The vehicle CSV: one row per base vehicle and engine (engine columns empty when it has none).
export const vehicleCsvColumns = [
  "vcdb_base_vehicle_id",
  "year",
  "make",
  "vcdb_make_id",
  "model",
  "vcdb_model_id",
  "engine",
  "vcdb_engine_config_id",
  "liters",
  "fuel",
] as const;
export type VehicleCsvColumn = (typeof vehicleCsvColumns)[number];
/** A file must have these; the others may be left out (as if empty). */
export const requiredVehicleCsvColumns: readonly VehicleCsvColumn[] = ["year", "make", "model"];

/** What an import adds and changes (nothing is ever removed). */
export const vehicleImportCountsSchema = z.object({
  makes: z.number().int(),
  models: z.number().int(),
  baseVehicles: z.number().int(),
  engines: z.number().int(),
  /** Engines newly listed for a base vehicle. */
  engineLinks: z.number().int(),
  /** Makes, models, base vehicles and engines that were there and change (VCdb ids, litres, fuel). */
  updates: z.number().int(),
});
export type VehicleImportCounts = z.infer<typeof vehicleImportCountsSchema>;

export const vehicleCsvPreviewSchema = z.object({
  rows: z.number().int(),
  changes: vehicleImportCountsSchema,
  /** Every problem, in line order; the import is refused while there is one. */
  errors: z.array(csvRowErrorSchema),
});
export type VehicleCsvPreview = z.infer<typeof vehicleCsvPreviewSchema>;
export const vehicleImportResultSchema = z.object({
  rows: z.number().int(),
  changes: vehicleImportCountsSchema,
});
export type VehicleImportResult = z.infer<typeof vehicleImportResultSchema>;

/** "12 fitment rows, 1 garage vehicle and 3 order lines": what still names a vehicle. */
export interface VehicleUses {
  fitmentRows: number;
  garageVehicles: number;
  orderLines: number;
}
const listInWords = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
/**
 * Why something cannot be removed: "This vehicle is in 12 fitment rows; remove them first". Garage
 * vehicles and order lines are the customers': while any name it, it stays.
 */
export function vehicleInUseMessage(subject: string, uses: VehicleUses): string {
  const parts = [
    uses.fitmentRows > 0 && plural(uses.fitmentRows, "fitment row"),
    uses.garageVehicles > 0 &&
      plural(uses.garageVehicles, "customer's garage", "customers' garages"),
    uses.orderLines > 0 && plural(uses.orderLines, "order line"),
  ].filter((p): p is string => Boolean(p));
  const onlyFitment = uses.garageVehicles === 0 && uses.orderLines === 0;
  return `${subject} is in ${listInWords(parts)}; ${
    onlyFitment
      ? "remove them first"
      : "customers' garages and orders keep it, so it cannot be removed"
  }`;
}
