import { QueryClient } from "@tanstack/react-query";
import { afterEach, expect, test, vi } from "vitest";
import { queryKeys } from "../../../lib/query-keys";
import { mergeVisitorCart, serverCartQuery } from "./cart";

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** A fetch whose answers the test gives, by "METHOD /path", when it likes. */
function heldFetch() {
  const answer = new Map<string, (body: unknown) => void>();
  vi.stubGlobal(
    "fetch",
    (url: string, init?: RequestInit) =>
      new Promise<Response>((resolve) => {
        answer.set(`${init?.method ?? "GET"} ${url}`, (body) =>
          resolve(Response.json(body, { status: 200 })),
        );
      }),
  );
  return answer;
}

test("signing in: a read of the cart answered after the merge does not empty the merged cart", async () => {
  localStorage.setItem("partsworks.cart", JSON.stringify([{ productId: "p1", qty: 2 }]));
  const answer = heldFetch();
  const client = new QueryClient();
  // The page, loading signed in, reads the account's cart; the merge starts beside it.
  const reading = client.fetchQuery(serverCartQuery).catch(() => "dropped");
  await vi.waitFor(() => expect(answer.has("GET /api/cart")).toBe(true));
  const merging = mergeVisitorCart(client);
  await vi.waitFor(() => expect(answer.has("POST /api/cart/merge")).toBe(true));
  const merged = { lines: [{ productId: "p1", qty: 2 }] };
  answer.get("POST /api/cart/merge")!(merged);
  await merging;
  // The read was answered by the server before the merge's write: the cart as it was.
  answer.get("GET /api/cart")!({ lines: [] });
  expect(await reading).toBe("dropped");
  expect(client.getQueryData(queryKeys.cart.mine)).toEqual(merged);
  expect(localStorage.getItem("partsworks.cart")).toBeNull();
});

test("a read of the cart asked for while a merge is under way waits for it", async () => {
  localStorage.setItem("partsworks.cart", JSON.stringify([{ productId: "p1", qty: 2 }]));
  const answer = heldFetch();
  const client = new QueryClient();
  const merging = mergeVisitorCart(client);
  await vi.waitFor(() => expect(answer.has("POST /api/cart/merge")).toBe(true));
  const reading = client.fetchQuery({ ...serverCartQuery, queryKey: ["cart-read-apart"] });
  // Nothing is read while the merge is unanswered.
  await new Promise((r) => setTimeout(r, 0));
  expect(answer.has("GET /api/cart")).toBe(false);
  answer.get("POST /api/cart/merge")!({ lines: [{ productId: "p1", qty: 2 }] });
  await merging;
  await vi.waitFor(() => expect(answer.has("GET /api/cart")).toBe(true));
  answer.get("GET /api/cart")!({ lines: [{ productId: "p1", qty: 2 }] });
  expect(await reading).toEqual({ lines: [{ productId: "p1", qty: 2 }] });
});
