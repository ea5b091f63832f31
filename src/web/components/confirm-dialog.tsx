import { useCallback, useState, type ReactNode } from "react";
import { Modal } from "./modal";
import { notify } from "../lib/notify";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** The other answer (default "Cancel"), where it is a choice rather than a way back. */
  cancelLabel?: string;
  busy?: boolean;
  error?: string;
  /** `danger` (the default) for what destroys or undoes, `positive` for a step forward. */
  tone?: "danger" | "positive";
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before something that cannot be undone; the confirm button really does it. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel}>
      {props.children && <div className="text-base-content/80">{props.children}</div>}
      {props.error && (
        <p role="alert" className="mt-3 text-error">
          {props.error}
        </p>
      )}
      {/* Wraps on a phone, where a longer answer ("Keep them in the cart") would be cut off. */}
      <div className="modal-action flex-wrap">
        <button type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
          {props.cancelLabel ?? "Cancel"}
        </button>
        <button
          type="button"
          className={`btn ${props.tone === "positive" ? "btn-primary" : "btn-error"}`}
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.busy && <span className="loading loading-spinner loading-sm" />}
          {props.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/** A question for `useConfirm`: the dialog's title, its button, and what it says below. */
export interface ConfirmQuestion {
  title: string;
  confirmLabel: string;
  body?: ReactNode;
  tone?: "danger" | "positive";
}

/**
 * The dialog asked the way `window.confirm` is, for an action that needs no more than a yes:
 * `if (await confirm({ title, confirmLabel })) …`, with `dialog` rendered once by the caller.
 * (An action whose request can fail in the dialog, or that takes input there, renders its own
 * ConfirmDialog, with `busy` and `error`.)
 */
export function useConfirm() {
  const [asked, setAsked] = useState<ConfirmQuestion & { answer(yes: boolean): void }>();
  const confirm = useCallback(
    (question: ConfirmQuestion) =>
      new Promise<boolean>((resolve) => setAsked({ ...question, answer: resolve })),
    [],
  );
  const answer = (yes: boolean) => {
    asked?.answer(yes);
    setAsked(undefined);
  };
  // Rendered only while asked: a closed dialog's title would still name it for queries by label.
  const dialog = asked && (
    <ConfirmDialog
      open
      title={asked.title}
      confirmLabel={asked.confirmLabel}
      tone={asked.tone}
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    >
      {asked.body}
    </ConfirmDialog>
  );
  return [confirm, dialog] as const;
}

/**
 * How RemoveDialog names its target to the API: `id(target)`, which a target with an `id` of its
 * own may leave out (then that id).
 */
type TargetId<T> = T extends { id: string | number }
  ? { id?(target: T): string }
  : { id(target: T): string };

const idOf = <T,>(target: T, id?: (target: T) => string) =>
  id ? id(target) : String((target as { id: string | number }).id);

/**
 * Asks before doing something to `target` (open while there is one): does it through `action`
 * with `id(target)`, then hands its answer to `done` and closes; a refusal stays in the dialog.
 * Cancelling forgets a refusal shown. (A key's rotation; RemoveDialog's removal.) `done` is
 * called from the action's promise, so it runs even when the dialog's host is gone by then: a
 * host shown only while its rows exist (a line's units on backorder) unmounts when the refetch
 * that follows the action removes them, and a mutation's `mutate(id, { onSuccess })` callbacks
 * are dropped with it (the buyer's toast never came).
 */
export function ActionDialog<T, R>({
  target,
  close,
  title,
  confirmLabel,
  action,
  id,
  done,
  children,
}: {
  target: T | undefined;
  close(): void;
  title: string;
  confirmLabel: string;
  action: {
    mutateAsync(id: string): Promise<R>;
    reset(): void;
    isPending: boolean;
    error: Error | null;
  };
  id(target: T): string;
  done(result: R): void;
  /** What the dialog says of the target. */
  children(target: T): ReactNode;
}) {
  return (
    <ConfirmDialog
      open={target !== undefined}
      title={title}
      confirmLabel={confirmLabel}
      busy={action.isPending}
      error={action.error?.message}
      onCancel={() => {
        action.reset();
        close();
      }}
      onConfirm={() =>
        target !== undefined &&
        action.mutateAsync(id(target)).then(
          (result) => {
            done(result);
            close();
          },
          // A refusal: said in the dialog (`action.error`).
          () => undefined,
        )
      }
    >
      {target !== undefined && children(target)}
    </ConfirmDialog>
  );
}

/**
 * Asks before removing `target` (open while there is one), removes it through `removal` with
 * its id (TargetId), says `removed` when done and closes; a refusal stays in the dialog. Cancelling
 * forgets a refusal shown.
 */
export function RemoveDialog<T>({
  target,
  close,
  title,
  confirmLabel,
  removal,
  id,
  removed,
  children,
}: {
  target: T | undefined;
  close(): void;
  title: string;
  confirmLabel: string;
  removal: {
    mutateAsync(id: string): Promise<unknown>;
    reset(): void;
    isPending: boolean;
    error: Error | null;
  };
  /** The toast once it is gone (none: the list saying so is enough). */
  removed?: string;
  /** What the dialog says of the target. */
  children(target: T): ReactNode;
} & TargetId<T>) {
  return (
    <ActionDialog<T, unknown>
      target={target}
      close={close}
      title={title}
      confirmLabel={confirmLabel}
      action={removal}
      id={(t) => idOf(t, id)}
      done={() => {
        if (removed) notify.success(removed);
      }}
    >
      {children}
    </ActionDialog>
  );
}
