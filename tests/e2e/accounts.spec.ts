import { demoAccount } from "../../src/server/auth/demo-identity-provider";
import {
  demoAdmin,
  demoCustomer,
  fillLogin,
  signInThroughApi,
  signUpInBrowser,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

test("the login form shows the specification's validation messages", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByText("Email is Required")).toBeVisible();
  await expect(page.getByText("Password is Required")).toBeVisible();

  await page.getByLabel("Email", { exact: true }).fill("not-an-address");
  await page.getByLabel("Password").fill("12345");
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByText("Provide a valid Email")).toBeVisible();
  await expect(page.getByText("Must be 6 characters or longer")).toBeVisible();
});

test("the sign-up form asks for a name", async ({ page }) => {
  await page.goto("/signup");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Name is Required")).toBeVisible();
  await expect(page.getByText("Email is Required")).toBeVisible();
  await expect(page.getByText("Password is Required")).toBeVisible();
});

test("sign up lands on / with the display name in the navbar, and Sign Out signs out", async ({
  page,
}) => {
  const who = await signUpInBrowser(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Dashboard" })).toBeVisible();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(page.getByText(who.name)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
});

test("signing up with a taken email shows the provider's error in red", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Someone");
  await page.getByLabel("Email", { exact: true }).fill(demoCustomer.email);
  await page.getByLabel("Password").fill("Rotor-Caliper-42");
  await page.getByRole("button", { name: "Sign Up" }).click();
  const error = page.getByRole("alert");
  await expect(error).toBeVisible();
  await expect(error).toHaveClass(/text-error/);
});

test("a signed-out visit to /dashboard goes to /login and, after signing in, back to /dashboard", async ({
  page,
}) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
  await fillLogin(page, demoCustomer.email, demoCustomer.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "My Info" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(demoCustomer.name);
  await expect(page.getByLabel("Name")).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("readonly", "");
  const sidebar = page.getByRole("navigation", { name: "Dashboard" });
  await expect(sidebar.getByRole("link")).toHaveText([
    "My Profile",
    "My Items",
    "My Lists",
    "Quick order",
    "Quotes",
    "Warranty claims",
    "Add a Review",
  ]);
});

test("a wrong password shows the provider's error in red", async ({ page }) => {
  await page.goto("/login");
  await fillLogin(page, demoCustomer.email, "wrong-password");
  const error = page.getByRole("alert");
  await expect(error).toHaveText("Invalid email or password");
  await expect(error).toHaveClass(/text-error/);
  await expect(page).toHaveURL(/\/login$/);
});

test("a customer edits their profile and it stays saved", async ({ page }) => {
  await signUpThroughApi(page);
  await page.goto("/dashboard");
  await page.getByLabel("Education").fill("Automotive engineering");
  await page.getByLabel("Phone number").fill("+44 20 7946 0000");
  await page.getByLabel("Address").fill("12 Garage Lane, Leeds");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile is saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Education")).toHaveValue("Automotive engineering");
  await expect(page.getByLabel("Address")).toHaveValue("12 Garage Lane, Leeds");
  // Typed with spaces, kept in one form.
  await expect(page.getByLabel("Phone number")).toHaveValue("+442079460000");
});

test("social sign-in through the OIDC provider lands back signed in", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole("button", { name: "Continue with Demo ID" }).click();
  // The identity provider's own page, on its own origin.
  await expect(page.getByRole("heading", { name: "Demo ID" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(demoAccount.email);
  await page.getByLabel("Password").fill(demoAccount.password);
  await page.getByRole("button", { name: "Sign in to Demo ID" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-name").first()).toHaveText(demoAccount.name);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(demoAccount.email);
});

test("a customer opening an admin page is signed out and lands on /login", async ({ page }) => {
  await signUpThroughApi(page);
  await page.goto("/dashboard/allusers");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(
    "You were signed out: that page is for admins only. Sign in with an admin account to open it.",
  );
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});

test("an admin sees the admin sidebar", async ({ page }) => {
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard");
  const sidebar = page.getByRole("navigation", { name: "Dashboard" });
  await expect(sidebar.getByRole("link")).toHaveText([
    "My Profile",
    "All Users",
    "Add Product",
    "Manage All Products",
    "Vehicles",
    "Attributes",
    "Imports",
    "Manage All orders",
    "Shipping Zones",
    "Locations",
    "Incoming supply",
    "Backorders",
    "Tax Rates",
    "Audit Log",
    "Companies",
    "Price lists",
    "Customer groups",
    "Discount codes",
    "Markets",
    "Approvals",
    "Quotes",
    "Invoices",
    "Returns",
    "Warranty claims",
    "API keys",
    "Webhooks",
  ]);
});

test("leaving the profile with unsaved edits asks first; staying keeps them", async ({ page }) => {
  await signUpThroughApi(page);
  await page.goto("/dashboard");
  await page.getByLabel("Education").fill("Mechanical engineering");
  const question = page.getByRole("dialog", {
    name: "You have unsaved changes. Leave this page and lose them?",
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blogs" }).click();
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByLabel("Education")).toHaveValue("Mechanical engineering");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blogs" }).click();
  await question.getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(/\/blogs$/);
});
