import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { EditRemoveButtons, RowButton } from "./edit-remove-buttons";

test("a row button is named after its row; its tone is its look", () => {
  render(
    <>
      <RowButton label="Approve order 1001" tone="primary">
        Approve
      </RowButton>
      <RowButton label="Rename WORN" disabled>
        Rename
      </RowButton>
    </>,
  );
  const approve = screen.getByRole("button", { name: "Approve order 1001" });
  expect(approve.textContent).toBe("Approve");
  expect(approve.className).toBe("btn btn-sm btn-primary");
  expect(approve.getAttribute("type")).toBe("button");
  const rename = screen.getByRole("button", { name: "Rename WORN" });
  expect(rename.className).toBe("btn btn-sm");
  expect((rename as HTMLButtonElement).disabled).toBe(true);
});

test("Remove is the danger tone beside a plain Edit", () => {
  render(<EditRemoveButtons name="Texas sales tax" onEdit={() => {}} onRemove={() => {}} />);
  expect(screen.getByRole("button", { name: "Edit Texas sales tax" }).className).toBe("btn btn-sm");
  expect(screen.getByRole("button", { name: "Remove Texas sales tax" }).className).toBe(
    "btn btn-sm btn-outline btn-error",
  );
});
