import { useCallback, useEffect } from "react";
import { useNavigate } from "react-router";
import { useConfirm, type ConfirmQuestion } from "../components/confirm-dialog";

export const UNSAVED_CHANGES_MESSAGE = "You have unsaved changes. Leave this page and lose them?";

/** The question before unsaved edits are lost (leaving the page, or closing their dialog). */
export const leaveUnsavedQuestion: ConfirmQuestion = {
  title: UNSAVED_CHANGES_MESSAGE,
  confirmLabel: "Leave",
};

/**
 * While `dirty`, asks before the page is left: a link inside the app (the click is stopped, and
 * followed once the person confirms) or closing and reloading the tab (the browser's own
 * question). Render the returned `dialog`; `confirmLeaving()` asks the same before the form's own
 * way out (a dialog's Cancel), and answers yes at once when nothing is unsaved.
 */
export function useUnsavedChangesWarning(dirty: boolean) {
  const [confirm, dialog] = useConfirm();
  const navigate = useNavigate();
  const confirmLeaving = useCallback(
    () => (dirty ? confirm(leaveUnsavedQuestion) : Promise.resolve(true)),
    [dirty, confirm],
  );
  useEffect(() => {
    if (!dirty) return;
    const onClick = (e: MouseEvent) => {
      const link = e.target instanceof Element ? e.target.closest("a[href]") : null;
      // A new tab or a download leaves nothing behind.
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || link.download) return;
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
      e.preventDefault();
      e.stopPropagation();
      void confirm(leaveUnsavedQuestion).then((leave) => {
        if (!leave) return;
        if (link.origin === window.location.origin) {
          void navigate(`${link.pathname}${link.search}${link.hash}`);
        } else {
          window.location.assign(link.href);
        }
      });
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    // Capture: before the router's own click handler on the link.
    document.addEventListener("click", onClick, true);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      document.removeEventListener("click", onClick, true);
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
  }, [dirty, confirm, navigate]);
  return { confirmLeaving, dialog };
}
