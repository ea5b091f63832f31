import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { expect, test } from "vitest";
import { useConfirm } from "./confirm-dialog";

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
