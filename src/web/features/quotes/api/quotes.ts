import { useQuery } from "@tanstack/react-query";
import type { Order } from "#contract/orders";
import type {
  Quote,
  QuoteAcceptInput,
  QuoteDetail,
  QuoteSendInput,
  QuoteStatus,
  QuoteTotal,
} from "#contract/quotes";
import { apiGet, apiSend } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useSubmissionKeys } from "../../../lib/idempotency";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";

/** Quotes (docs/quotes.md): the list, one quote, and what can be done to it. */

export interface QuoteListParams {
  limit: number;
  offset: number;
  status?: QuoteStatus;
  q?: string;
}

const keys = {
  all: ["quotes"] as const,
  list: (p: QuoteListParams) => ["quotes", "list", p] as const,
  one: (id: string) => ["quotes", "one", id] as const,
  total: (id: string) => ["quotes", "total", id] as const,
};

export const useQuotes = (params: QuoteListParams) =>
  usePageRead<Quote>(keys.list(params), "/quotes", { ...params, q: params.q || undefined });

export const useQuote = (id: string) =>
  useQuery({
    queryKey: keys.one(id),
    queryFn: () => apiGet<QuoteDetail>(`/quotes/${encodeURIComponent(id)}`),
  });

/**
 * What accepting a sent quote would charge now, to the chosen saved address: shown before
 * they accept, and sent back as `expectedTotal` (refetched with every quote change, so a 409
 * "total changed" shows the new figures). No address yet: nothing is asked.
 */
export const useQuoteTotal = (id: string, addressId: string | undefined) =>
  useQuery({
    queryKey: [...keys.total(id), addressId],
    queryFn: () =>
      apiSend<QuoteTotal>("POST", `/quotes/${encodeURIComponent(id)}/total`, { addressId }),
    enabled: addressId !== undefined,
    retry: false,
  });

const useQuoteMutation = <Input, Result>(fn: (input: Input) => Promise<Result>) =>
  useInvalidatingMutation(keys.all, fn, { alsoOnError: true });

/** The cart becomes a request for quote (the cart stays as it is). */
export const useRequestQuote = () =>
  useQuoteMutation((note: string) => apiSend<Quote>("POST", "/quotes", { note }));

export const useSendQuote = (id: string) =>
  useQuoteMutation((input: QuoteSendInput) =>
    apiSend<Quote>("POST", `/quotes/${encodeURIComponent(id)}/send`, input),
  );

export function useAcceptQuote(id: string) {
  const attempts = useSubmissionKeys();
  return useInvalidatingMutation(
    keys.all,
    (input: QuoteAcceptInput) =>
      attempts.send(input, (idempotencyKey) =>
        apiSend<{ quote: Quote; order: Order }>(
          "POST",
          `/quotes/${encodeURIComponent(id)}/accept`,
          input,
          { idempotencyKey },
        ),
      ),
    { also: [["orders"]], alsoOnError: true },
  );
}

export const useDeclineQuote = (id: string) =>
  useQuoteMutation(() => apiSend<Quote>("POST", `/quotes/${encodeURIComponent(id)}/decline`, {}));

export function usePostQuoteMessage(id: string) {
  return useReplacingMutation(keys.one(id), (body: string) =>
    apiSend<QuoteDetail>("POST", `/quotes/${encodeURIComponent(id)}/messages`, { body }),
  );
}
