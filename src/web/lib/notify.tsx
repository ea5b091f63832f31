import { lazy, Suspense, useSyncExternalStore } from "react";

// Toasts (sonner) load on the first message, not with the app: no public page shows one on
// arrival, and the library is about a tenth of the landing page's JavaScript.

type Kind = "success" | "error";

let wanted = false;
const listeners = new Set<() => void>();
let markReady: () => void = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

function show(kind: Kind, message: string): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  // The toaster subscribes when it mounts; a message sent before that would not show.
  void Promise.all([import("sonner"), ready]).then(([{ toast }]) => {
    toast[kind](message);
  });
}

/** Shows a toast: `notify.success("Your profile is saved")`. */
export const notify = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
};

/**
 * A write's `onSuccess` and `onError` (the options of a mutation's `mutate`) that say how it
 * went: `success` (its words, or words made of the answer), or the refusal's own message.
 */
export const notifyOutcome = <Answer,>(success: string | ((answer: Answer) => string)) => ({
  onSuccess: (answer: Answer) =>
    notify.success(typeof success === "string" ? success : success(answer)),
  onError: (err: Error) => notify.error(err.message),
});

const Toaster = lazy(async () => ({ default: (await import("./toaster")).Toaster }));

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where toasts appear; renders nothing until the first `notify` call. */
export function Notifications() {
  const mounted = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster onReady={markReady} />
    </Suspense>
  );
}
