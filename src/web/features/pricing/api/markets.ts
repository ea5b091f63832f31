import { useQuery } from "@tanstack/react-query";
import type { Market, MarketValues } from "#contract/markets";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const keys = { all: ["markets"] as const };

/** The markets: every one for an admin (the default first), the active ones for anyone else. */
export const useMarkets = (enabled = true) =>
  useQuery({ queryKey: keys.all, queryFn: () => apiGet<Market[]>("/markets"), enabled });

const useInvalidating = <I, O>(fn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(keys.all, fn);

export const useCreateMarket = () =>
  useInvalidating((body: MarketValues) => apiSend<Market>("POST", "/markets", body));

export const useUpdateMarket = () =>
  useInvalidating(({ id, ...body }: MarketValues & { id: string }) =>
    apiSend<Market>("PATCH", `/markets/${encodeURIComponent(id)}`, body),
  );
