import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { expect, test } from "vitest";
import { RemoveDialog, useConfirm } from "./confirm-dialog";

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
    mutate: (id: string, { onSuccess }: { onSuccess(): void }) => {
      if (id === "Fleet" && !refused) {
        setRefused(true);
        return setError(new Error("Fleet still has buyers"));
      }
      setNames((n) => n.filter((x) => x !== id));
      onSuccess();
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
  expect(screen.queryByRole("button", { name: "Remove Retail" })).toBeNull();
  expect(screen.queryByRole("dialog")).toBeNull();
  expect(screen.getByRole("button", { name: "Remove Fleet" })).toBeTruthy();
});

test("RemoveDialog names a target with an id of its own by that id", async () => {
  const removed: string[] = [];
  const removal = {
    mutate: (id: string, { onSuccess }: { onSuccess(): void }) => {
      removed.push(id);
      onSuccess();
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
