import { fireEvent, render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { z } from "zod";
import { ApiError } from "./api-client";
import { useApiForm } from "./use-api-form";

const schema = z.object({ name: z.string().trim().min(1, "Name is Required") });

/** A form whose request fails with `refusal` (nothing sent while the field is invalid). */
function NameForm({ refusal, sent }: { refusal: Error; sent: string[] }) {
  const { register, submitWith, formError, formState } = useApiForm(schema, {
    defaultValues: { name: "" },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(({ name }) => {
        sent.push(name);
        throw refusal;
      })}
    >
      <label htmlFor="name">Name</label>
      <input id="name" {...register("name")} />
      {formState.errors.name && <p data-testid="name-error">{formState.errors.name.message}</p>}
      {formError && <p role="alert">{formError}</p>}
      <button type="submit">Save</button>
    </form>
  );
}

const submit = (name: string) => {
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: name } });
  fireEvent.click(screen.getByRole("button", { name: "Save" }));
};

test("the schema's message shows beside the field, and nothing is sent", async () => {
  const sent: string[] = [];
  render(<NameForm refusal={new Error("unused")} sent={sent} />);
  submit("   ");
  expect((await screen.findByTestId("name-error")).textContent).toBe("Name is Required");
  expect(sent).toEqual([]);
});

test("a refusal naming a field of the form is said beside it, once", async () => {
  const sent: string[] = [];
  const taken = new ApiError(409, "conflict", "name: Taken already", { name: "Taken already" });
  render(<NameForm refusal={taken} sent={sent} />);
  submit(" Fleet ");
  expect((await screen.findByTestId("name-error")).textContent).toBe("Taken already");
  expect(screen.queryByRole("alert")).toBeNull();
  expect(sent).toEqual(["Fleet"]);
});

test("a refusal naming no field of the form is the form's message", async () => {
  const sent: string[] = [];
  const busy = new ApiError(503, "busy", "The store is busy: try again", { request: "busy" });
  render(<NameForm refusal={busy} sent={sent} />);
  submit("Fleet");
  expect((await screen.findByRole("alert")).textContent).toBe("The store is busy: try again");
  expect(screen.queryByTestId("name-error")).toBeNull();
});

test("an error that is no API answer shows its message", async () => {
  render(<NameForm refusal={new TypeError("Failed to fetch")} sent={[]} />);
  submit("Fleet");
  expect((await screen.findByRole("alert")).textContent).toBe("Failed to fetch");
});
