import { useState, type ReactNode } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { notify } from "../../../lib/notify";

/**
 * A user row's button that asks first: the dialog says what will happen, its button (labelled as
 * the row's) sends `action` with `arg` and toasts `done`'s words; a refusal stays in the dialog,
 * Cancel forgets it. One per row, so each row shows its own progress.
 */
export function AskFirstButton<R>({
  label,
  look,
  title,
  tone,
  action,
  arg,
  done,
  children,
}: {
  label: string;
  /** The button's daisyUI look: "btn-primary", "btn-outline". */
  look: string;
  title: string;
  tone?: "danger" | "positive";
  action: {
    mutateAsync(arg: string): Promise<R>;
    reset(): void;
    isPending: boolean;
    error: Error | null;
  };
  arg: string;
  done(result: R): string;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const close = () => {
    action.reset();
    setAsking(false);
  };
  return (
    <>
      <button type="button" className={`btn btn-sm ${look}`} onClick={() => setAsking(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={asking}
        title={title}
        confirmLabel={label}
        tone={tone}
        busy={action.isPending}
        error={action.error?.message}
        onCancel={close}
        // Not mutate()'s callbacks: the refreshed list hides this button (unmounting it) before
        // they would run, and they are skipped after an unmount.
        onConfirm={() =>
          action.mutateAsync(arg).then(
            (res) => notify.success(done(res)),
            () => undefined, // shown in the dialog
          )
        }
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
