import { stringify } from "csv-stringify/sync";
import {
  bodySizeProblem,
  cellCountError,
  escapeCell,
  headerErrors,
  readCsvRecords,
  unescapeCell,
} from "../csv/csv-file";
import type { CsvRowError } from "../../contract/product-csv";
import { hasControlCharacters } from "../../contract/text";
import {
  LITERS_PATTERN,
  MAX_VEHICLE_CSV_ROWS,
  MAX_VEHICLE_NAME,
  MAX_VEHICLE_YEAR,
  MIN_VEHICLE_YEAR,
  requiredVehicleCsvColumns,
  vehicleAdminMessages,
  vehicleCsvColumns,
  vehicleMessages,
  type VehicleCsvColumn,
} from "../../contract/vehicles";

/*
 * The vehicle CSV (docs/vehicles.md), read and written without the database: one row per base
 * vehicle and engine, the engine's columns empty for a base vehicle without engines. The
 * import (csv-import.ts) finds or adds each name and sets the VCdb ids the row gives.
 */

/** A checked row: names trimmed, an empty cell undefined. */
export interface VehicleCsvRow {
  line: number;
  year: number;
  make: string;
  model: string;
  vcdbBaseVehicleId?: number;
  vcdbMakeId?: number;
  vcdbModelId?: number;
  engine?: {
    name: string;
    vcdbEngineConfigId?: number;
    liters?: string;
    fuel?: string;
  };
}

/** One row of the export: a base vehicle and one of its engines (or none). */
export interface VehicleCsvRecord {
  vcdbBaseVehicleId: number | null;
  year: number;
  make: string;
  vcdbMakeId: number | null;
  model: string;
  vcdbModelId: number | null;
  engine: string | null;
  vcdbEngineConfigId: number | null;
  liters: string | null;
  fuel: string | null;
}

/** The vehicle table as CSV text (UTF-8, header first, `\r\n` line ends, quoted where needed). */
export function toVehicleCsv(records: VehicleCsvRecord[]): string {
  const cell = (v: string | number | null) => (v === null ? "" : escapeCell(String(v)));
  return stringify(
    records.map((r) => [
      cell(r.vcdbBaseVehicleId),
      cell(r.year),
      cell(r.make),
      cell(r.vcdbMakeId),
      cell(r.model),
      cell(r.vcdbModelId),
      cell(r.engine),
      cell(r.vcdbEngineConfigId),
      cell(r.liters),
      cell(r.fuel),
    ]),
    { header: true, columns: [...vehicleCsvColumns], record_delimiter: "\r\n" },
  );
}

export interface ParsedVehicleCsv {
  rows: VehicleCsvRow[];
  /** Every problem of every row, with its line (1 is the header). */
  errors: CsvRowError[];
}

type Cells = Partial<Record<VehicleCsvColumn, string>>;

const nameCell = (cells: Cells, column: VehicleCsvColumn, errors: CsvRowError[], line: number) => {
  const value = (cells[column] ?? "").trim();
  if (value === "") return undefined;
  if (hasControlCharacters(value)) {
    errors.push({ line, column, message: "Must not contain control characters" });
  } else if (value.length > MAX_VEHICLE_NAME) {
    errors.push({ line, column, message: vehicleAdminMessages.nameTooLong });
  }
  return value;
};

const vcdbCell = (cells: Cells, column: VehicleCsvColumn, errors: CsvRowError[], line: number) => {
  const value = (cells[column] ?? "").trim();
  if (value === "") return undefined;
  const n = Number(value);
  if (!/^\d{1,10}$/.test(value) || n < 1 || n > 2_147_483_647) {
    errors.push({ line, column, message: vehicleAdminMessages.vcdbId });
    return undefined;
  }
  return n;
};

/**
 * Reads and checks a whole file: every problem of every row, with its line; the rows are those
 * without problems.
 */
export function readVehicleCsv(data: Buffer): ParsedVehicleCsv {
  const fileError = (message: string): ParsedVehicleCsv => ({
    rows: [],
    errors: [{ line: 1, message }],
  });
  const read = readCsvRecords(data);
  if ("problem" in read) return fileError(read.problem);
  const { names, body } = read;
  const header = headerErrors(
    names,
    requiredVehicleCsvColumns.filter((c) => !names.includes(c)),
    (n) => (vehicleCsvColumns as readonly string[]).includes(n),
  );
  if (header.length > 0) return { rows: [], errors: header };
  const size = bodySizeProblem(body, MAX_VEHICLE_CSV_ROWS, "vehicles", "rows");
  if (size) return fileError(size);

  const rows: VehicleCsvRow[] = [];
  const errors: CsvRowError[] = [];
  for (const { cells: record, line } of body) {
    const cellCount = cellCountError(record, line, names);
    if (cellCount) {
      errors.push(cellCount);
      continue;
    }
    const cells: Cells = {};
    names.forEach((name, i) => (cells[name as VehicleCsvColumn] = unescapeCell(record[i]!)));
    const before = errors.length;

    const yearCell = (cells.year ?? "").trim();
    const year = Number(yearCell);
    if (!/^\d{4}$/.test(yearCell) || year < MIN_VEHICLE_YEAR || year > MAX_VEHICLE_YEAR) {
      errors.push({ line, column: "year", message: vehicleMessages.year });
    }
    const make = nameCell(cells, "make", errors, line);
    if (make === undefined) {
      errors.push({ line, column: "make", message: vehicleAdminMessages.nameRequired });
    }
    const model = nameCell(cells, "model", errors, line);
    if (model === undefined) {
      errors.push({ line, column: "model", message: vehicleAdminMessages.nameRequired });
    }
    const vcdbBaseVehicleId = vcdbCell(cells, "vcdb_base_vehicle_id", errors, line);
    const vcdbMakeId = vcdbCell(cells, "vcdb_make_id", errors, line);
    const vcdbModelId = vcdbCell(cells, "vcdb_model_id", errors, line);
    const engine = nameCell(cells, "engine", errors, line);
    const vcdbEngineConfigId = vcdbCell(cells, "vcdb_engine_config_id", errors, line);
    const liters = (cells.liters ?? "").trim() || undefined;
    if (liters !== undefined && !LITERS_PATTERN.test(liters)) {
      errors.push({ line, column: "liters", message: vehicleAdminMessages.liters });
    }
    const fuel = nameCell(cells, "fuel", errors, line);
    if (fuel !== undefined && fuel.length > 30) {
      errors.push({ line, column: "fuel", message: vehicleAdminMessages.fuel });
    }
    if (engine === undefined) {
      for (const [column, value] of [
        ["vcdb_engine_config_id", cells.vcdb_engine_config_id],
        ["liters", cells.liters],
        ["fuel", cells.fuel],
      ] as const) {
        if ((value ?? "").trim() !== "") {
          errors.push({ line, column, message: "Give the engine's name with its other columns" });
        }
      }
    }
    if (errors.length > before) continue;
    rows.push({
      line,
      year,
      make: make!,
      model: model!,
      ...(vcdbBaseVehicleId !== undefined && { vcdbBaseVehicleId }),
      ...(vcdbMakeId !== undefined && { vcdbMakeId }),
      ...(vcdbModelId !== undefined && { vcdbModelId }),
      ...(engine !== undefined && {
        engine: {
          name: engine,
          ...(vcdbEngineConfigId !== undefined && { vcdbEngineConfigId }),
          ...(liters !== undefined && { liters }),
          ...(fuel !== undefined && { fuel }),
        },
      }),
    });
  }
  return { rows, errors };
}
