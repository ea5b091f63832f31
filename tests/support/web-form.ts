import { fireEvent, screen } from "@testing-library/react";

/** Types `value` into the field whose label is `label`. */
export const typeInto = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** What the input labelled `label` holds. */
export const valueOf = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

/** The refusal shown beside the field labelled `label` (its `aria-describedby`), or null. */
export const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute("aria-describedby");
  return id ? document.getElementById(id)!.textContent : null;
};

/** Clicks the button named `name`. */
export const press = (name: string) => fireEvent.click(screen.getByRole("button", { name }));
