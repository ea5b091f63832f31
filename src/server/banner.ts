import type { Config } from "./config";

/**
 * What a person who just ran `npm start` in a terminal needs: where the store is, how to sign
 * in, where its mail goes and how to pay. Printed as plain text when stdout is a terminal (the
 * log lines stay JSON for machines).
 */
export function firstRunBanner(
  config: Pick<Config, "demo" | "seedDemoData" | "paymentsGateway"> & {
    mail: Pick<Config["mail"], "smtpUrl">;
  },
  publicUrl: string,
): string[] {
  const lines = [`PartsWorks store is running: ${publicUrl}`];
  if (config.demo && config.seedDemoData) {
    lines.push(
      "Sign in as admin@example.com / admin123 (admin) or customer@example.com / customer123",
    );
  }
  if (config.demo && !config.mail.smtpUrl) {
    lines.push(`Every email the store sends: ${publicUrl}/dev/mailbox`);
  }
  if (config.paymentsGateway === "test-card") {
    lines.push("Pay with the test card 4242 4242 4242 4242, any future expiry, any CVC");
  }
  lines.push("Stop with Ctrl+C. What is where: README.md");
  return lines;
}
