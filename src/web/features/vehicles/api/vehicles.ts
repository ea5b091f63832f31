import { useQuery } from "@tanstack/react-query";
import { CSV_FIELD } from "#contract/product-csv";
import type {
  BaseVehicleRow,
  VehicleCsvPreview,
  VehicleImportResult,
  VehicleNames,
  VehicleTableQuery,
} from "#contract/vehicles";
import { apiGet, apiSend, apiUpload } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/**
 * Under "vehicles", as the vehicle selector's lists are (features/fitment): a change here makes
 * them stale too.
 */
const keys = {
  all: ["vehicles"] as const,
  names: ["vehicles", "admin-names"] as const,
  table: (q: Partial<VehicleTableQuery>) => ["vehicles", "admin-table", q] as const,
};

/** Where the admin downloads the vehicle table as CSV. */
export const VEHICLE_EXPORT_URL = "/api/vehicles/export.csv";

/** The records the screen adds, changes and removes, by their API path. */
export const vehicleRecordPaths = {
  make: "/vehicles/makes",
  model: "/vehicles/models",
  engine: "/vehicles/engines",
  submodel: "/vehicles/submodels",
  baseVehicle: "/vehicles/base-vehicles",
} as const;
export type VehicleRecordKind = keyof typeof vehicleRecordPaths;

export const useVehicleNames = () =>
  useQuery({ queryKey: keys.names, queryFn: () => apiGet<VehicleNames>("/vehicles/names") });

export const useVehicleTable = (q: Partial<VehicleTableQuery>) =>
  usePageRead<BaseVehicleRow>(keys.table(q), "/vehicles/table", q);

/** After any change: the admin's lists, the selector's, and products' fitment in words. */
const alsoStale = { also: [queryKeys.products.all, ["garage"]] };

/** Adds a record of `kind` (POST). */
export function useAddVehicleRecord<Answer>(kind: VehicleRecordKind) {
  return useInvalidatingMutation(
    keys.all,
    (body: object) => apiSend<Answer>("POST", vehicleRecordPaths[kind], body),
    alsoStale,
  );
}

/** Changes a record of `kind` (PATCH). */
export function useChangeVehicleRecord<Answer>(kind: VehicleRecordKind) {
  return useInvalidatingMutation(
    keys.all,
    ({ id, body }: { id: number; body: object }) =>
      apiSend<Answer>("PATCH", `${vehicleRecordPaths[kind]}/${id}`, body),
    alsoStale,
  );
}

/** Removes a record of `kind` (DELETE; its id as the dialog hands it: a string). */
export function useRemoveVehicleRecord(kind: VehicleRecordKind) {
  return useInvalidatingMutation(
    keys.all,
    (id: string) =>
      apiSend<void>("DELETE", `${vehicleRecordPaths[kind]}/${encodeURIComponent(id)}`),
    alsoStale,
  );
}

/** Checks a vehicle CSV; nothing is written. */
export const previewVehicleCsv = (file: File) =>
  apiUpload<VehicleCsvPreview>("/vehicles/import/preview", CSV_FIELD, file);

/** Imports a vehicle CSV without errors, all or nothing. */
export function useImportVehicleCsv() {
  return useInvalidatingMutation(
    keys.all,
    (file: File) => apiUpload<VehicleImportResult>("/vehicles/import", CSV_FIELD, file),
    alsoStale,
  );
}
