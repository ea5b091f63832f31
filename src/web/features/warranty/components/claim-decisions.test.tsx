import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import type { Claim } from "#contract/warranty";
import { json, renderWithApi } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { ClaimDecisions } from "./claim-decisions";

afterEach(() => {
  vi.restoreAllMocks();
});

const claim = {
  id: "5f0c3a9e-2222-4d6a-9a55-0c6a4f1e2b11",
  number: "WC-10042",
  status: "inspected",
  qty: 2,
  productName: "In-Tank Electric Fuel Pump",
  partReturn: null,
  replacementOrder: null,
  remedy: null,
  inspection: null,
} as unknown as Claim;

const open = (name: string) => fireEvent.click(screen.getByRole("button", { name }));

test("a refund needs the part back: until it came back only a replacement can be approved, and it is sent as the API takes it", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<ClaimDecisions claim={claim} />, () =>
    json({ ...claim, status: "approved", replacementOrder: { number: "PW-100777" } }),
  );
  open("Approve");
  const refund = screen.getByLabelText("Refund of the returned part") as HTMLInputElement;
  expect(refund.disabled).toBe(true);
  expect(
    screen.getByText(
      "A refund is for a part that came back: ask for the part first, or approve a replacement",
    ),
  ).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Message (optional; the claimant reads this)"), {
    target: { value: "Sorry for the trouble." },
  });
  open("Approve the claim");
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toEqual({
    method: "POST",
    url: `/api/warranty-claims/${claim.id}/approve`,
    body: { remedy: "replacement", message: "Sorry for the trouble." },
  });
  await waitFor(() =>
    expect(success).toHaveBeenCalledWith(
      "Claim WC-10042 approved: replacement order PW-100777 is ready to ship",
    ),
  );
});

test("while the part is on its way the claim is not approved, and it is not asked for twice", () => {
  renderWithApi(
    <ClaimDecisions
      claim={{
        ...claim,
        status: "part_requested",
        partReturn: { id: "r1", rma: "RMA-10009", status: "approved" },
      }}
    />,
    () => json({}),
  );
  expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
  expect(screen.queryByRole("button", { name: "Ask for the part back" })).toBeNull();
  expect(screen.getByTestId("claim-waiting-part").textContent).toContain(
    "mark RMA-10009 received on the Returns page",
  );
});

test("the part is asked back with the store's instructions", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<ClaimDecisions claim={claim} />, () =>
    json({ ...claim, partReturn: { rma: "RMA-10010" } }),
  );
  open("Ask for the part back");
  fireEvent.change(screen.getByLabelText("Instructions (optional; the claimant reads these)"), {
    target: { value: "Keep the pump dry." },
  });
  fireEvent.click(screen.getAllByRole("button", { name: "Ask for the part back" }).at(-1)!);
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    url: `/api/warranty-claims/${claim.id}/request-part`,
    body: { instructions: "Keep the pump dry." },
  });
});
