import { useEffect } from "react";
import { Toaster as SonnerToaster } from "sonner";

/** Sonner's toaster, loaded with the first toast (see notify.tsx). */
export function Toaster({ onReady }: { onReady: () => void }) {
  // Children's effects run first: once this runs, sonner's <Toaster> listens for toasts.
  useEffect(onReady, [onReady]);
  return <SonnerToaster position="top-center" richColors closeButton />;
}
