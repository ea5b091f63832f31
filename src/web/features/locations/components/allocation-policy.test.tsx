import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { allocationWords } from "#contract/locations";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { AllocationPolicyForm } from "./allocation-policy";

undoStubsAfterEach();

test("the admin turns on 'one location for the whole order': it is sent and said", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<AllocationPolicyForm />, (method, _url, body) =>
    json(method === "GET" ? { wholeOrder: false } : body),
  );
  const box = await screen.findByRole("checkbox", { name: allocationWords.wholeOrder });
  expect((box as HTMLInputElement).checked).toBe(false);
  fireEvent.click(box);
  fireEvent.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "PUT",
    url: "/api/locations/allocation-policy",
    body: { wholeOrder: true },
  });
  await waitFor(() => expect(success).toHaveBeenCalledWith(allocationWords.saved(true)));
});
