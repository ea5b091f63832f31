import { useEffect } from "react";
import { Toaster as SonnerToaster } from "sonner";

/** Sonner's toaster, loaded with the first toast (see notify.tsx). */
export function Toaster({ onReady }: { onReady: () => void }) {
  // Children's effects run first: once this runs, sonner's <Toaster> listens for toasts.
  useEffect(onReady, [onReady]);
  // Bottom right: a toast never covers the navbar (or the phone menu's button).
  return <SonnerToaster position="bottom-right" richColors closeButton />;
}
