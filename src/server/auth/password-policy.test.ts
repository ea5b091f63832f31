import { expect, test } from "vitest";
import { signIn, signUp } from "../../../tests/support/accounts";
import { waitForMail } from "../../../tests/support/mailbox";
import { appForTests } from "../../../tests/support/store";
import { WEAK_PASSWORD_MESSAGE } from "../../contract/password-strength";

const { t } = appForTests({
  env: { AUTH_RATE_LIMIT_PER_IP: "1000", AUTH_RATE_LIMIT_PER_EMAIL: "100" },
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });

test.each([
  ["123456", "a heavily used password"],
  ["aaaaaa", "repeated characters"],
  ["partsworks", "the site's name"],
  ["PartsWorks1", "the site's name with a digit"],
  ["jane.doe", "the email's local part"],
  ["janedoe7", "the local part run together"],
  ["Jane Doe", "the display name"],
])("sign-up refuses %s (%s) with a clear message", async (password) => {
  const res = await post("/api/auth/sign-up/email", {
    email: `jane.doe@${Math.random().toString(36).slice(2)}.example.com`,
    password,
    name: "Jane Doe",
  });
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ error: "weak_password" });
  expect(res.json().message).toContain(WEAK_PASSWORD_MESSAGE);
  expect(res.json().fields.password).toBe(res.json().message);
});

test("the specification's length messages still come first", async () => {
  const short = await post("/api/auth/sign-up/email", {
    email: "short-one@example.com",
    password: "12345",
    name: "Short",
  });
  expect(short.statusCode).toBe(400);
  expect(short.json().message).not.toContain(WEAK_PASSWORD_MESSAGE);
});

test("a strong password signs up", async () => {
  const a = await signUp(t.app, { password: "gear-box-7-lamp" });
  await signIn(t.app, a.email, "gear-box-7-lamp");
});

test("change password refuses a guessable new password, including the account's own address", async () => {
  const a = await signUp(t.app, { email: `morgan.tull.${Date.now()}@example.com` });
  const local = a.email.split("@")[0]!;
  for (const newPassword of ["123456", local]) {
    const res = await post(
      "/api/auth/change-password",
      { currentPassword: a.password, newPassword },
      a.cookie,
    );
    expect(res.statusCode, newPassword).toBe(400);
    expect(res.json().fields.newPassword).toContain(WEAK_PASSWORD_MESSAGE);
  }
  await signIn(t.app, a.email, a.password);
  const ok = await post(
    "/api/auth/change-password",
    { currentPassword: a.password, newPassword: "quiet-harbour-31" },
    a.cookie,
  );
  expect(ok.statusCode).toBe(200);
  // Not signed in: still 401, whatever the password.
  const anonymous = await post("/api/auth/change-password", {
    currentPassword: "x",
    newPassword: "123456",
  });
  expect(anonymous.statusCode).toBe(401);
});

test("reset password refuses a guessable new password and the link still works afterwards", async () => {
  const a = await signUp(t.app, { email: `sam.river.${Date.now()}@example.com` });
  await post("/api/auth/request-password-reset", { email: a.email });
  const mail = await waitForMail(t.app, a.email, /reset your partsworks password/i);
  const link = mail.links.find((l) => l.includes("/reset-password"))!;
  const token = new URL(link).searchParams.get("token")!;
  const weak = await post("/api/auth/reset-password", { token, newPassword: "aaaaaa" });
  expect(weak.statusCode).toBe(400);
  expect(weak.json().fields.newPassword).toContain(WEAK_PASSWORD_MESSAGE);
  const local = await post("/api/auth/reset-password", {
    token,
    newPassword: a.email.split("@")[0],
  });
  expect(local.statusCode).toBe(400);
  const ok = await post("/api/auth/reset-password", { token, newPassword: "copper-kettle-88" });
  expect(ok.statusCode, ok.body).toBe(200);
  await signIn(t.app, a.email, "copper-kettle-88");
});
