import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  FitmentRange,
  FitmentRangeInput,
  GarageVehicle,
  ProductFitment,
  Vehicle,
  VehicleOption,
  VinDecoded,
} from "#contract/vehicles";
import { apiGet, apiSend, toQueryString } from "../../../lib/api-client";
import type { VehicleChoice } from "../../../lib/vehicle-choice";

const keys = {
  years: ["vehicles", "years"] as const,
  makes: (year: number) => ["vehicles", "makes", year] as const,
  models: (year: number, make: number) => ["vehicles", "models", year, make] as const,
  engines: (year: number, make: number, model: number) =>
    ["vehicles", "engines", year, make, model] as const,
  vehicle: (v: VehicleChoice) => ["vehicles", "vehicle", v] as const,
  garage: ["garage"] as const,
  fitment: (id: string, v: VehicleChoice | undefined) => ["products", "fitment", id, v] as const,
};

/** Lists that change only when the catalog's vehicles do: kept for a while. */
const STABLE = 10 * 60_000;

export function useYears() {
  return useQuery({
    queryKey: keys.years,
    queryFn: () => apiGet<number[]>("/vehicles/years"),
    staleTime: STABLE,
  });
}

export function useMakes(year: number | undefined) {
  return useQuery({
    queryKey: keys.makes(year ?? 0),
    queryFn: () => apiGet<VehicleOption[]>(`/vehicles/makes${toQueryString({ year })}`),
    enabled: year !== undefined,
    staleTime: STABLE,
  });
}

export function useModels(year: number | undefined, make: number | undefined) {
  return useQuery({
    queryKey: keys.models(year ?? 0, make ?? 0),
    queryFn: () => apiGet<VehicleOption[]>(`/vehicles/models${toQueryString({ year, make })}`),
    enabled: year !== undefined && make !== undefined,
    staleTime: STABLE,
  });
}

export function useEngines(
  year: number | undefined,
  make: number | undefined,
  model: number | undefined,
) {
  return useQuery({
    queryKey: keys.engines(year ?? 0, make ?? 0, model ?? 0),
    queryFn: () =>
      apiGet<VehicleOption[]>(`/vehicles/engines${toQueryString({ year, make, model })}`),
    enabled: year !== undefined && make !== undefined && model !== undefined,
    staleTime: STABLE,
  });
}

/** The chosen vehicle in words ("2016 Volkswagen Golf 1.4 TSI"). */
export function useVehicle(v: VehicleChoice | undefined) {
  return useQuery({
    queryKey: keys.vehicle(v ?? { year: 0, make: 0, model: 0 }),
    queryFn: () => apiGet<Vehicle>(`/vehicles/vehicle${toQueryString({ ...v })}`),
    enabled: v !== undefined,
    staleTime: STABLE,
    retry: false,
  });
}

export const decodeVin = (vin: string) =>
  apiGet<VinDecoded>(`/vehicles/vin/${encodeURIComponent(vin)}`);

/** The vehicles a product fits, and whether the shopper's does. */
/** @param known the vehicles it fits, when the page has them already (the part page's answer). */
export function useProductFitment(
  id: string,
  v: VehicleChoice | undefined,
  known?: ProductFitment["applications"],
) {
  return useQuery({
    queryKey: keys.fitment(id, v),
    initialData: v || !known ? undefined : { applications: known },
    // With a vehicle, the vehicles it fits stay on screen while the fit is asked.
    placeholderData: (previous) => previous ?? (known ? { applications: known } : undefined),
    queryFn: () =>
      apiGet<ProductFitment>(
        `/products/${encodeURIComponent(id)}/fitment${toQueryString({ ...v })}`,
      ),
    retry: false,
  });
}

export function useGarage(enabled: boolean) {
  return useQuery({
    queryKey: keys.garage,
    queryFn: () => apiGet<GarageVehicle[]>("/garage"),
    enabled,
  });
}

export function useGarageChange() {
  const queryClient = useQueryClient();
  const onSuccess = (garage: GarageVehicle[]) => queryClient.setQueryData(keys.garage, garage);
  const save = useMutation({
    mutationFn: (v: VehicleChoice) => apiSend<GarageVehicle[]>("POST", "/garage", v),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      apiSend<GarageVehicle[]>("DELETE", `/garage/${encodeURIComponent(id)}`),
    onSuccess,
  });
  return { save, remove };
}

const fitmentRowsKey = (id: string) => ["products", "fitment-rows", id] as const;

/** An admin's view of a product's fitment: year ranges. */
export function useFitmentRows(productId: string) {
  return useQuery({
    queryKey: fitmentRowsKey(productId),
    queryFn: () =>
      apiGet<{ rows: FitmentRange[] }>(`/products/${encodeURIComponent(productId)}/fitment-rows`),
  });
}

export function useSaveFitmentRows(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: FitmentRangeInput[]) =>
      apiSend<{ rows: FitmentRange[] }>(
        "PUT",
        `/products/${encodeURIComponent(productId)}/fitment-rows`,
        { rows },
      ),
    onSuccess: async (data) => {
      queryClient.setQueryData(fitmentRowsKey(productId), data);
      // Lists filtered by a vehicle and product pages now read differently.
      await queryClient.invalidateQueries({ queryKey: ["products"] });
    },
  });
}
