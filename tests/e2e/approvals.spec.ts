import { approvalSettingsMessages, type ApprovalSettings } from "../../src/contract/approvals";
import { demoAdmin, productNamed, signInThroughApi } from "./auth-helpers";
import { inviteToCompany, joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";

/**
 * Approvals (docs/approvals.md): a company buyer with a per-order limit checks out over it; the
 * order waits ("Awaiting approval", not payable); the owner opens the emailed link, approves with
 * a note; the buyer is emailed the note and pays with the test card.
 */

test("a buyer over their limit waits for approval; the owner approves from the emailed link; the buyer pays", async ({
  page,
  browser,
  baseURL,
}) => {
  // Three people, two emails each way and a checkout: about a minute here.
  test.setTimeout(150_000);
  const part = await productNamed(page, "timing belt");
  const companyName = `Approval Fleet ${Date.now()}-${process.pid}`;

  // The admin sets up the company (its pages are trade-prices.spec.ts's subject).
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/companies", { data: { name: companyName } });
  expect(created.status()).toBe(201);
  const companyId = ((await created.json()) as { id: string }).id;
  const owner = await joinByEmail(browser, baseURL, companyName);
  const buyer = await joinByEmail(browser, baseURL, companyName);
  try {
    await inviteToCompany(page, companyId, owner.who.email, "owner");
    await inviteToCompany(page, companyId, buyer.who.email, "buyer");
    await owner.accept();
    await buyer.accept();

    // The owner gives the buyer a per-order limit of $1.00 on their company page.
    await owner.page.goto("/dashboard/company");
    const members = (await (
      await owner.page.request.get(`/api/companies/${companyId}/members`)
    ).json()) as { userId: string; email: string }[];
    const buyerId = members.find((m) => m.email === buyer.who.email)!.userId;
    const limited = await owner.page.request.patch(
      `/api/companies/${companyId}/members/${buyerId}`,
      { data: { orderLimit: 1 } },
    );
    expect(limited.status()).toBe(200);

    // The buyer checks out: the order is sent for approval instead of to payment.
    const b = buyer.page;
    await b.goto(`/products/${part._id}`);
    await b.getByRole("spinbutton", { name: "Quantity" }).fill(String(part.minimumOrder));
    await b.getByRole("button", { name: `Add to cart: ${part.name}` }).click();
    await expect(b.getByTestId("cart-link").first()).toHaveAccessibleName(
      `Cart, ${part.minimumOrder} ${part.minimumOrder === 1 ? "item" : "items"}`,
    );
    await b.goto("/cart");
    await b.getByRole("button", { name: "Check out" }).click();
    await b.getByLabel("Address line 1").fill("7 Depot Road");
    await b.getByLabel("City").fill("Leeds");
    await b.getByLabel("Country").selectOption("GB");
    await b.getByLabel("Postal code").fill("LS1 4AB");
    await b.getByLabel("Phone").fill("01134960000");
    await b.getByRole("button", { name: "Use this address" }).click();
    await expect(b.getByRole("radio", { name: /^UK Tracked/ })).toBeChecked();
    await b.getByRole("button", { name: "Place order" }).click();
    await expect(b).toHaveURL(/\/dashboard\/orders\//);
    await expect(
      b.locator("[data-sonner-toast]").filter({ hasText: "sent to your company's owners" }),
    ).toBeVisible();
    await expect(b.getByText("Awaiting approval", { exact: true })).toBeVisible();
    await expect(b.getByRole("link", { name: /^Pay / })).toHaveCount(0);
    const orderId = b.url().split("/").pop()!;

    await b.goto("/dashboard/myitems");
    const row = b.getByTestId("my-order").filter({ hasText: part.name });
    await expect(row.getByText("Awaiting approval", { exact: true })).toBeVisible();
    await expect(row.getByRole("link", { name: "Pay" })).toHaveCount(0);

    // The owner opens the emailed link and approves, with a note.
    const o = owner.page;
    await openMail(o, owner.who.email, /Approve or decline order/);
    const link = await o
      .locator(`a[href*="/dashboard/approvals?order=${orderId}"]`)
      .first()
      .getAttribute("href");
    await o.goto(link!);
    const waiting = o.getByTestId("approval-row").filter({ hasText: "From your email" });
    await expect(waiting).toContainText(buyer.who.email);
    await expect(waiting).toContainText(part.name);
    // A search that misses says so; one by the part's name finds it again.
    const search = o.getByRole("search");
    await search.getByLabel("Search approvals").fill("no such part anywhere");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(
      o.getByText("No order awaiting approval matches “no such part anywhere”."),
    ).toBeVisible();
    await search.getByLabel("Search approvals").fill(part.name);
    await search.getByRole("button", { name: "Search" }).click();
    await expect(waiting).toContainText(part.name);
    await waiting.getByRole("button", { name: /^Approve order/ }).click();
    const dialog = o.getByRole("dialog");
    await dialog.getByLabel("Note for the buyer (optional)").fill("OK for the March service");
    await dialog.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(o.locator("[data-sonner-toast]").filter({ hasText: "can pay now" })).toBeVisible();
    await expect(o.getByTestId("approval-row")).toHaveCount(0);

    // The buyer is told, with the note, and pays with the test card.
    await openMail(b, buyer.who.email, /was approved/);
    await expect(b.getByText("OK for the March service")).toBeVisible();
    await b.goto("/dashboard/myitems");
    const approved = b.getByTestId("my-order").filter({ hasText: part.name });
    await expect(approved.getByText("Unpaid", { exact: true })).toBeVisible();
    await approved.getByRole("link", { name: "Pay" }).click();
    await expect(b).toHaveURL(/\/dashboard\/payment\//);
    const pay = b.getByRole("button", { name: /^Pay / });
    await expect(pay).toBeEnabled();
    await b.getByLabel("Card number").fill("4242424242424242");
    await b.getByLabel("Expiry (MM / YY)").fill("1230");
    await b.getByLabel("CVC").fill("123");
    await pay.click();
    await expect(b.getByText("Congrats! Your payment is completed.")).toBeVisible();
  } finally {
    await owner.context.close();
    await buyer.context.close();
  }
});

test("the admin sets the approval window to 5 business days on the Approvals page; it is still there after a reload", async ({
  adminPage: admin,
}) => {
  // The store's settings are shared by every test: they are put back as they were at the end.
  const before = (await (
    await admin.request.get("/api/approvals/settings")
  ).json()) as ApprovalSettings;
  try {
    await admin.goto("/dashboard/approvals");
    const form = admin.getByRole("form", { name: "Approval settings" });
    const windowDays = form.getByLabel("Approval window (business days)");
    const reminder = form.getByLabel("Reminder before it ends (hours)");

    // A reminder not before the window's end is refused beside its field.
    await windowDays.fill("1");
    await reminder.fill("24");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(form.getByText(approvalSettingsMessages.reminderBeforeEnd(1))).toBeVisible();
    // The field in error takes the focus (a moment after the message shows): typing before that
    // would have the focus move mid-fill and the next value land in the reminder.
    await expect(reminder).toBeFocused();

    await windowDays.fill("5");
    await reminder.fill("30");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(
      admin.getByText(approvalSettingsMessages.saved({ windowBusinessDays: 5, reminderHours: 30 })),
    ).toBeVisible();

    await admin.reload();
    await expect(windowDays).toHaveValue("5");
    await expect(reminder).toHaveValue("30");
    await expect(form.getByText(approvalSettingsMessages.defaultsInForce)).toHaveCount(0);
  } finally {
    const back = await admin.request.put("/api/approvals/settings", {
      data: { windowBusinessDays: before.windowBusinessDays, reminderHours: before.reminderHours },
    });
    expect(back.status()).toBe(200);
  }
});
