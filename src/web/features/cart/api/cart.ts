import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { Cart, CartItemInput } from "#contract/cart";
import { cartMessages, MAX_CART_LINES } from "#contract/constants";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { useSession } from "../../../lib/session";
import { vehicleFromStored, withVehicle, type VehicleChoice } from "../../../lib/vehicle-choice";

// A visitor's cart lives in this browser (localStorage) and is priced by the server; a signed-in
// customer's lives on the server. At sign-in (or sign-up) the visitor's cart is merged into the
// account's and cleared here. Admins have no cart. A line remembers the vehicle it was added for
// (the one chosen in the selector or My garage), here or on the server (docs/vehicle-on-line.md).

const STORAGE_KEY = "partsworks.cart";
const listeners = new Set<() => void>();
let cached: { raw: string | null; items: CartItemInput[] } = { raw: null, items: [] };

function readVisitorCart(): CartItemInput[] {
  if (typeof localStorage === "undefined") return cached.items;
  const raw = localStorage.getItem(STORAGE_KEY);
  if (raw === cached.raw) return cached.items;
  let items: CartItemInput[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) {
      items = parsed
        .filter(
          (i): i is CartItemInput =>
            typeof i?.productId === "string" && Number.isInteger(i?.qty) && i.qty > 0,
        )
        .slice(0, MAX_CART_LINES)
        .map((i) => ({
          productId: i.productId,
          qty: i.qty,
          // A damaged vehicle is left off; the line stays.
          ...withVehicle(vehicleFromStored(i.vehicle)),
        }));
    }
  } catch {
    // A damaged entry is an empty cart.
  }
  cached = { raw, items };
  return items;
}

function writeVisitorCart(items: CartItemInput[]) {
  if (items.length === 0) localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, JSON.stringify(items));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the cart.
  const onStorage = (e: StorageEvent) => e.key === STORAGE_KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export const useVisitorItems = () => useSyncExternalStore(subscribe, readVisitorCart, () => []);

/** Who the cart belongs to: a visitor (browser), a customer (server), or nobody (admins). */
export function useCartOwner(): "visitor" | "customer" | "none" | "unknown" {
  const { data: user, isPending } = useSession();
  if (isPending) return "unknown";
  if (!user) return "visitor";
  return user.role === "admin" ? "none" : "customer";
}

/**
 * The signed-in customer's cart, kept on the server; read after a merge under way (below) has
 * been answered, never in the middle of it.
 */
export const serverCartQuery = {
  queryKey: queryKeys.cart.mine,
  queryFn: async () => {
    await merging;
    return apiGet<Cart>("/cart");
  },
};

export const useServerCart = (enabled: boolean) => useQuery({ ...serverCartQuery, enabled });

/**
 * Units in the cart, for the navbar: a visitor's counted here without asking the server; undefined
 * for admins (no cart) and while the session is unknown.
 */
export function useCartCount(): number | undefined {
  const owner = useCartOwner();
  const items = useVisitorItems();
  const server = useServerCart(owner === "customer");
  if (owner === "visitor") return items.reduce((n, i) => n + i.qty, 0);
  if (owner === "customer") return server.data?.count ?? 0;
  return undefined;
}

/** The quantity of a part already in the cart (0 when it is not). */
export function useQtyInCart(productId: string): number {
  const owner = useCartOwner();
  const items = useVisitorItems();
  const server = useServerCart(owner === "customer");
  const lines = owner === "customer" ? (server.data?.lines ?? []) : items;
  return lines.find((l) => l.productId === productId)?.qty ?? 0;
}

/**
 * Puts a part in the cart with a quantity, or takes it out (`qty` 0). A `vehicle` (adding it for
 * the chosen vehicle) becomes the line's; without one the line keeps the vehicle it has.
 */
export function useSetCartQty() {
  const owner = useCartOwner();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      productId,
      qty,
      vehicle,
    }: {
      productId: string;
      qty: number;
      vehicle?: VehicleChoice;
    }) => {
      if (owner === "customer") {
        const cart =
          qty === 0
            ? await apiSend<Cart>("DELETE", `/cart/items/${encodeURIComponent(productId)}`)
            : await apiSend<Cart>("PUT", `/cart/items/${encodeURIComponent(productId)}`, {
                qty,
                ...withVehicle(vehicle),
              });
        await showServerCart(queryClient, cart);
        return;
      }
      if (owner !== "visitor") throw new Error(cartMessages.forAdmins);
      const items = readVisitorCart();
      const inCart = items.some((i) => i.productId === productId);
      if (qty === 0) writeVisitorCart(items.filter((i) => i.productId !== productId));
      else if (inCart) {
        writeVisitorCart(
          items.map((i) =>
            i.productId === productId ? { ...i, qty, ...withVehicle(vehicle) } : i,
          ),
        );
      } else if (items.length >= MAX_CART_LINES) throw new Error(cartMessages.tooManyLines);
      else writeVisitorCart([...items, { productId, qty, ...withVehicle(vehicle) }]);
    },
  });
}

/** Once a customer is signed in, the cart they filled as a visitor joins their account's. */
export function useMergeVisitorCart() {
  const owner = useCartOwner();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (owner !== "customer") return;
    void mergeVisitorCart(queryClient);
  }, [owner, queryClient]);
}

/**
 * The account's cart as a write (a merge, a quantity) answered it. A read of the cart sent before
 * the write may be answered after it, with the cart as it was: it is dropped, or it would undo the
 * write on screen (a merged cart shown empty).
 */
async function showServerCart(queryClient: QueryClient, cart: Cart) {
  await queryClient.cancelQueries({ queryKey: queryKeys.cart.mine });
  queryClient.setQueryData(queryKeys.cart.mine, cart);
}

let merging: Promise<void> | undefined;
export function mergeVisitorCart(queryClient: QueryClient): Promise<void> {
  const items = readVisitorCart();
  if (items.length === 0 || merging) return merging ?? Promise.resolve();
  merging = apiSend<Cart>("POST", "/cart/merge", { items })
    .then(async (cart) => {
      writeVisitorCart([]);
      // The page, loading signed in, reads the account's cart beside the merge.
      await showServerCart(queryClient, cart);
    })
    .catch(() => {
      // Kept in the browser: the next page load tries again.
    })
    .finally(() => {
      merging = undefined;
    });
  return merging;
}
