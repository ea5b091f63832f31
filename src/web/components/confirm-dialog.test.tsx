import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { expect, test, vi } from "vitest";
import { ActionDialog, RemoveDialog, useConfirm } from "./confirm-dialog";

function DeleteButton() {
  const [confirm, dialog] = useConfirm();
  const [answers, setAnswers] = useState<boolean[]>([]);
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          const yes = await confirm({
            title: "Delete the price list Fleet?",
            body: "Its prices go with it.",
            confirmLabel: "Delete",
          });
          setAnswers((a) => [...a, yes]);
        }}
      >
        Delete Fleet
      </button>
      <output>{answers.join(",")}</output>
      {dialog}
    </>
  );
}

test("useConfirm asks in the dialog and answers what was clicked; the dialog is gone after", async () => {
  render(<DeleteButton />);
  expect(screen.queryByRole("dialog")).toBeNull();

  fireEvent.click(screen.getByRole("button", { name: "Delete Fleet" }));
  const dialog = await screen.findByRole("dialog", { name: "Delete the price list Fleet?" });
  expect(dialog.textContent).toContain("Its prices go with it.");
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(await screen.findByText("false")).toBeTruthy();
  expect(screen.queryByRole("dialog")).toBeNull();

  fireEvent.click(screen.getByRole("button", { name: "Delete Fleet" }));
  fireEvent.click(await screen.findByRole("button", { name: "Delete" }));
  expect(await screen.findByText("false,true")).toBeTruthy();
  expect(screen.queryByRole("dialog")).toBeNull();
});

/** A list of two names, each removed through a removal that refuses "Fleet" once. */
function Names() {
  const [names, setNames] = useState(["Fleet", "Retail"]);
  const [removing, setRemoving] = useState<string>();
  const [error, setError] = useState<Error | null>(null);
  const [refused, setRefused] = useState(false);
  const removal = {
    isPending: false,
    error,
    reset: () => setError(null),
    mutateAsync: (id: string) => {
      if (id === "Fleet" && !refused) {
        setRefused(true);
        const refusal = new Error("Fleet still has buyers");
        setError(refusal);
        return Promise.reject(refusal);
      }
      setNames((n) => n.filter((x) => x !== id));
      return Promise.resolve();
    },
  };
  return (
    <>
      {names.map((n) => (
        <button key={n} type="button" onClick={() => setRemoving(n)}>
          Remove {n}
        </button>
      ))}
      <RemoveDialog
        target={removing}
        close={() => setRemoving(undefined)}
        title="Remove this price list?"
        confirmLabel="Remove"
        removal={removal}
        id={(n) => n}
      >
        {(n) => <>{n} and its prices.</>}
      </RemoveDialog>
    </>
  );
}

test("RemoveDialog removes what it was opened for; a refusal stays in it until cancelled", async () => {
  render(<Names />);
  fireEvent.click(screen.getByRole("button", { name: "Remove Fleet" }));
  const dialog = await screen.findByRole("dialog", { name: "Remove this price list?" });
  expect(dialog.textContent).toContain("Fleet and its prices.");
  fireEvent.click(screen.getByRole("button", { name: "Remove" }));
  expect((await screen.findByRole("alert")).textContent).toBe("Fleet still has buyers");
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(screen.queryByRole("dialog")).toBeNull();

  fireEvent.click(screen.getByRole("button", { name: "Remove Retail" }));
  expect(screen.queryByRole("alert")).toBeNull();
  fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  expect(screen.queryByRole("button", { name: "Remove Retail" })).toBeNull();
  expect(screen.getByRole("button", { name: "Remove Fleet" })).toBeTruthy();
});

test("RemoveDialog names a target with an id of its own by that id", async () => {
  const removed: string[] = [];
  const removal = {
    mutateAsync: (id: string) => {
      removed.push(id);
      return Promise.resolve();
    },
    reset: () => {},
    isPending: false,
    error: null,
  };
  render(
    <RemoveDialog
      target={{ id: 7, name: "Golf" }}
      close={() => {}}
      title="Remove this model?"
      confirmLabel="Remove"
      removal={removal}
    >
      {(m) => <>{m.name} and its years.</>}
    </RemoveDialog>,
  );
  fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
  expect(removed).toEqual(["7"]);
});

test("ActionDialog hands the answer to done even when its host is gone by then", async () => {
  // As on an order's page: the line's units on backorder are cancelled, the refetch that
  // follows removes the line, and the part of the page that asked (shown while there are such
  // lines) is gone before the mutation settles. The toast (done) must still come.
  let answer!: (refunded: string) => void;
  const done = vi.fn();
  function OnBackorder() {
    const [target, setTarget] = useState<string | undefined>("line 1");
    const cancel = useMutation({
      mutationFn: (_line: string) => new Promise<string>((resolve) => (answer = resolve)),
    });
    return (
      <ActionDialog
        target={target}
        close={() => setTarget(undefined)}
        title="Cancel the backordered parts?"
        confirmLabel="Cancel them"
        action={cancel}
        id={(line) => line}
        done={done}
      >
        {(line) => <>{line} will not be sent.</>}
      </ActionDialog>
    );
  }
  function OrderPage() {
    const [waiting, setWaiting] = useState(true);
    return (
      <>
        {waiting && <OnBackorder />}
        <button type="button" onClick={() => setWaiting(false)}>
          Refetched
        </button>
      </>
    );
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <OrderPage />
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole("button", { name: "Cancel them" }));
  await waitFor(() => expect(answer).toBeTypeOf("function"));
  fireEvent.click(screen.getByRole("button", { name: "Refetched" }));
  expect(screen.queryByRole("dialog")).toBeNull();
  answer("$320.00");
  await waitFor(() => expect(done).toHaveBeenCalledWith("$320.00"));
});
