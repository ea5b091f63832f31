import { useQuery } from "@tanstack/react-query";
import type { BackorderQueueQuery, QueuedBackorder } from "#contract/backorder-queue";
import type { Location } from "#contract/locations";
import { CSV_FIELD } from "#contract/product-csv";
import type { ProductListItem } from "#contract/products";
import type {
  IncomingSupply,
  SupplyCreate,
  SupplyImport,
  SupplyStatus,
  SupplyUpdate,
} from "#contract/supply";
import { apiGet, apiSend, apiUpload, toQueryString } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/** Rows a page of the list shows. */
export const SUPPLY_PAGE_SIZE = 20;

/** A page of incoming supply of one status (none: every status). */
export const useSupplyList = (status: SupplyStatus | "", page: number) =>
  usePageRead<IncomingSupply>(queryKeys.supply.list({ status, page }), "/incoming-supply", {
    status,
    limit: SUPPLY_PAGE_SIZE,
    offset: (page - 1) * SUPPLY_PAGE_SIZE,
  });

/** The locations supply may arrive at (the Add supply dialog's choice). */
export const useSupplyLocations = () =>
  useQuery({
    queryKey: queryKeys.locations.list,
    queryFn: () => apiGet<Location[]>("/locations"),
  });

/** Products whose name or part number matches `q` (the Add supply dialog's part). */
export const useSupplyProductSearch = (q: string) =>
  useQuery({
    queryKey: queryKeys.products.list({ q, limit: 8 }),
    queryFn: () => apiGet<ProductListItem[]>(`/products${toQueryString({ q, limit: 8 })}`),
    enabled: q.trim().length > 0,
  });

/**
 * A write of supply: the lists of supply again, and (a receipt puts units on sale) the products'
 * and locations' stock.
 */
const useSupplyWrite = <Vars, Answer>(send: (vars: Vars) => Promise<Answer>) =>
  useInvalidatingMutation(queryKeys.supply.all, send, {
    also: [queryKeys.products.all, queryKeys.locations.all],
  });

const supplyPath = (id: string, action = "") =>
  `/incoming-supply/${encodeURIComponent(id)}${action}`;

export const useAddSupply = () =>
  useSupplyWrite((supply: SupplyCreate) =>
    apiSend<IncomingSupply>("POST", "/incoming-supply", supply),
  );

export const useChangeSupply = () =>
  useSupplyWrite(({ id, change }: { id: string; change: SupplyUpdate }) =>
    apiSend<IncomingSupply>("PATCH", supplyPath(id), change),
  );

export const useReceiveSupply = () =>
  useSupplyWrite(({ id, qty }: { id: string; qty: number }) =>
    apiSend<IncomingSupply>("POST", supplyPath(id, "/receive"), { qty }),
  );

export const useCancelSupply = () =>
  useSupplyWrite((id: string) => apiSend<IncomingSupply>("POST", supplyPath(id, "/cancel")));

export const useImportSupply = () =>
  useSupplyWrite((file: File) =>
    apiUpload<SupplyImport>("/incoming-supply/import", CSV_FIELD, file),
  );

/** A page of the backorder queue, first placed first (by part, by a search). */
export const useBackorderQueue = (query: BackorderQueueQuery) =>
  usePageRead<QueuedBackorder>(queryKeys.supply.backorders(query), "/backorders", query);
