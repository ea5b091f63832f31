import type { Page } from "@playwright/test";

/**
 * The admin marks a return received on the Returns page with every line as it was sent back (as
 * new) and confirms the refund shown: the receive dialog, then the confirmation.
 */
export async function receiveAsSent(admin: Page, row: ReturnType<Page["getByTestId"]>) {
  await row.getByRole("button", { name: "Mark received" }).click();
  await admin
    .getByRole("dialog", { name: /^Receive RMA-\d+$/ })
    .getByRole("button", { name: "Receive" })
    .click();
  await admin
    .getByRole("dialog", { name: /^Refund \$/ })
    .getByRole("button", { name: /^Refund \$/ })
    .click();
}
