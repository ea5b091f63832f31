import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Opens the message to `to` whose subject matches, in the demo's /dev/mailbox: the store's
 * worker delivers its outbox to the local SMTP server a moment after the change, so the page is
 * looked at again until the message is there (for as long as the test may take: on a loaded
 * machine the worker's moment is longer than any fixed wait, 15 s was too short in CI).
 */
export async function openMail(page: Page, to: string, subject: string | RegExp) {
  const message = page.getByRole("row").filter({ hasText: to }).filter({ hasText: subject });
  await expect(async () => {
    await page.goto("/dev/mailbox");
    await expect(message).toHaveCount(1, { timeout: 500 });
  }).toPass();
  await message.getByRole("link").click();
}
