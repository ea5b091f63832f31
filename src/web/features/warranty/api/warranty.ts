import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CLAIM_PHOTO_FIELD } from "#contract/warranty";
import type {
  Claim,
  Claimable,
  ClaimApproval,
  ClaimInput,
  ClaimInspection,
  ClaimPartRequest,
  ClaimMessageInput,
  ClaimPhoto,
  FailureCode,
  FailureCodeInput,
  ClaimsQuery,
  ClaimSummary,
} from "#contract/warranty";
import { apiGet, apiSend, apiUpload } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useSubmissionKeys } from "../../../lib/idempotency";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { useOrderRead } from "../../../lib/order-reads";

// Under "orders": a claim changes what an order's lines may still be claimed or returned.
const KEY = ["orders", "warranty"] as const;
const keys = {
  claimable: (orderId: string) => [...KEY, "claimable", orderId] as const,
  forOrder: (orderId: string) => [...KEY, "order", orderId] as const,
  list: (query: object) => [...KEY, "list", query] as const,
  one: (id: string) => [...KEY, "claim", id] as const,
  codes: [...KEY, "failure-codes"] as const,
};

const claimPath = (id: string) => `/warranty-claims/${encodeURIComponent(id)}`;

/** What of each line of the order may still be claimed, and until when. */
export const useClaimable = (orderId: string, enabled: boolean) =>
  useOrderRead<Claimable>(keys.claimable(orderId), orderId, "warranty", enabled);

/** The order's claims, with their history. */
export const useOrderClaims = (orderId: string, enabled: boolean) =>
  useOrderRead<Claim[]>(keys.forOrder(orderId), orderId, "warranty-claims", enabled);

/** Claims, a page at a time: every claim for admins, else the caller's and their company's. */
export const useClaims = (query: Partial<ClaimsQuery> & { limit: number; offset: number }) =>
  usePageRead<ClaimSummary>(keys.list(query), "/warranty-claims", query);

/** One claim with its history (opened from a list). */
export const useClaim = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.one(id),
    queryFn: () => apiGet<Claim>(claimPath(id)),
    enabled,
  });

/** Files a claim (one attempt, one claim: the route takes an Idempotency-Key). */
export function useFileClaim() {
  const attempts = useSubmissionKeys();
  return useInvalidatingMutation(
    KEY,
    (body: ClaimInput) =>
      attempts.send(body, (idempotencyKey) =>
        apiSend<Claim>("POST", "/warranty-claims", body, { idempotencyKey }),
      ),
    { alsoOnError: true },
  );
}

/** The claimant's side adds photos of the failed part to an open claim (all or none). */
export function useAddClaimPhotos() {
  return useInvalidatingMutation(
    KEY,
    ({ claimId, files }: { claimId: string; files: File[] }) =>
      apiUpload<ClaimPhoto[]>(`${claimPath(claimId)}/photos`, CLAIM_PHOTO_FIELD, files),
    { alsoOnError: true },
  );
}

/**
 * A message on a claim's thread (the store may ask for information), or the store's inspection,
 * request for the part, approval or rejection.
 */
export function useClaimAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      a:
        | { kind: "message"; id: string; body: ClaimMessageInput }
        | { kind: "inspect"; id: string; body: ClaimInspection }
        | { kind: "reject"; id: string; body: { reason: string } }
        | { kind: "request-part"; id: string; body: ClaimPartRequest }
        | { kind: "approve"; id: string; body: ClaimApproval },
    ) =>
      apiSend<Claim>(
        "POST",
        `${claimPath(a.id)}/${a.kind === "message" ? "messages" : a.kind}`,
        a.body,
      ),
    // A decision may place a replacement order or write a return: every order's data.
    onSettled: (_claim, _error, a) =>
      queryClient.invalidateQueries({
        queryKey: a.kind === "approve" || a.kind === "request-part" ? ["orders"] : KEY,
      }),
  });
}

/** Admin: the failure codes, those in use first. */
export const useFailureCodes = (enabled = true) =>
  useQuery({
    queryKey: keys.codes,
    queryFn: () => apiGet<FailureCode[]>("/warranty/failure-codes"),
    enabled,
  });

/** Admin: adds a failure code, or renames or retires one. */
export function useSetFailureCode() {
  return useInvalidatingMutation(
    keys.codes,
    ({ code, body }: { code: string; body: FailureCodeInput }) =>
      apiSend<FailureCode>("PUT", `/warranty/failure-codes/${encodeURIComponent(code)}`, body),
    { alsoOnError: true },
  );
}
