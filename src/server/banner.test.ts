import { expect, test } from "vitest";
import { firstRunBanner } from "./banner";
import { loadConfig } from "./config";

test("the demo's first run says where the store is, the accounts, the mailbox and the test card", () => {
  const lines = firstRunBanner(loadConfig({ HOST: "127.0.0.1" }), "http://localhost:3000");
  expect(lines).toEqual([
    "PartsWorks store is running: http://localhost:3000",
    "Sign in as admin@example.com / admin123 (admin) or customer@example.com / customer123",
    "Every email the store sends: http://localhost:3000/dev/mailbox",
    "Pay with the test card 4242 4242 4242 4242, any future expiry, any CVC",
    "Stop with Ctrl+C. What is where: README.md",
  ]);
});

test("outside the demo it names no account and no mailbox", () => {
  const lines = firstRunBanner(
    loadConfig({
      HOST: "0.0.0.0",
      SMTP_URL: "smtp://mail.example.com:587",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    }),
    "https://parts.example.com",
  );
  expect(lines).toEqual([
    "PartsWorks store is running: https://parts.example.com",
    "Stop with Ctrl+C. What is where: README.md",
  ]);
});
