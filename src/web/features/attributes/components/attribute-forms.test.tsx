import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { attributeMessages, type AttributeDefinition } from "#contract/attributes";
import { notify } from "../../../lib/notify";
import { brakeDiameter, brakeVentType } from "../../../../../tests/support/attributes";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { errorOf, press, typeInto } from "../../../../../tests/support/web-form";
import { AddAttributeForm } from "./attribute-forms";
import { ProductAttributesForm } from "./product-attributes-form";
import { Specifications } from "./specifications";

undoStubsAfterEach();

const defs: AttributeDefinition[] = [
  { id: "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11", ...brakeDiameter },
  { id: "0b7a4c8e-2222-4d6a-9a55-0c6a4f1e2b11", ...brakeVentType },
  {
    id: "0b7a4c8e-3333-4d6a-9a55-0c6a4f1e2b11",
    category: "Brakes",
    name: "Pad material",
    kind: "text",
    unit: null,
    choices: [],
    position: 2,
    filterable: false,
  },
];

test("adding an attribute: the kind decides the fields; the contract's rules are checked before sending", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<AddAttributeForm category="Brakes" />, (_m, _u, body) =>
    Response.json({ ...defs[1], ...(body as object) }, { status: 201 }),
  );
  const submit = () => press("Add attribute");
  // A number has a unit; a choice its choices instead.
  expect(screen.getByLabelText("Unit (optional)")).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "choice" } });
  expect(screen.queryByLabelText("Unit (optional)")).toBeNull();
  typeInto("Name", "Vent type");
  typeInto("Choices", "Solid, solid");
  submit();
  await waitFor(() => expect(errorOf("Choices")).toBe(attributeMessages.choices));
  typeInto("Name", "");
  submit();
  await waitFor(() => expect(errorOf("Name")).toBe(attributeMessages.name));
  expect(sent).toEqual([]);

  typeInto("Name", "Vent type");
  typeInto("Choices", " Solid ,Vented, ");
  submit();
  await waitFor(() => expect(success).toHaveBeenCalledWith(attributeMessages.added("Vent type")));
  expect(sent).toEqual([
    {
      url: "/api/attributes",
      method: "POST",
      body: {
        category: "Brakes",
        name: "Vent type",
        kind: "choice",
        choices: ["Solid", "Vented"],
        filterable: true,
      },
    },
  ]);
});

test("a product's attributes: one field per definition, the unit shown, a bad number refused, blanks left out, the server's refusal beside its field", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  let refuse = true;
  const sent = renderWithApi(
    <ProductAttributesForm
      product={{
        _id: "9a1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11",
        category: "Brakes",
        attributes: [{ name: "vent type", value: "Solid", unit: null }],
      }}
    />,
    (method, _url, body) => {
      if (method === "GET") return Response.json(defs);
      if (refuse) {
        refuse = false;
        const message = attributeMessages.notANumber("Diameter");
        return Response.json(
          { error: "validation", message, fields: { [defs[0]!.id]: message } },
          { status: 400 },
        );
      }
      const values = (body as { values: { attributeId: string; value: string }[] }).values;
      return Response.json({
        attributes: values.map((v) => ({
          name: defs.find((d) => d.id === v.attributeId)!.name,
          value: v.value,
          unit: null,
        })),
      });
    },
  );
  const diameter = await screen.findByLabelText("Diameter");
  expect(screen.getByText("mm")).toBeTruthy();
  expect((screen.getByLabelText("Vent type") as HTMLSelectElement).value).toBe("Solid");
  const submit = () => press("Save attributes");

  fireEvent.change(diameter, { target: { value: "large" } });
  submit();
  await waitFor(() => expect(errorOf("Diameter")).toBe(attributeMessages.notANumber("Diameter")));
  expect(sent).toEqual([]);

  fireEvent.change(diameter, { target: { value: "280,5" } });
  submit();
  // The server's refusal names the attribute: shown beside it.
  await waitFor(() => expect(errorOf("Diameter")).toBe(attributeMessages.notANumber("Diameter")));
  submit();
  await waitFor(() => expect(success).toHaveBeenCalledWith(attributeMessages.saved));
  expect(sent).toHaveLength(2);
  expect(sent[1]).toEqual({
    url: "/api/products/9a1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11/attributes",
    method: "PUT",
    body: {
      values: [
        { attributeId: defs[0]!.id, value: "280,5" },
        { attributeId: defs[1]!.id, value: "Solid" },
      ],
    },
  });
});

test("Specifications lists each attribute with its unit, and nothing without attributes", () => {
  const { container } = render(<Specifications attributes={[]} />);
  expect(container.textContent).toBe("");
  render(
    <Specifications
      attributes={[
        { name: "Diameter", value: "280", unit: "mm" },
        { name: "Vent type", value: "Vented", unit: null },
      ]}
    />,
  );
  const rows = screen.getAllByRole("row").map((r) => r.textContent);
  expect(rows).toEqual(["Diameter280 mm", "Vent typeVented"]);
  expect(screen.getByRole("heading", { name: "Specifications" })).toBeTruthy();
});
