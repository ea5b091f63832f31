import { expect, test } from "vitest";
import { signUp } from "../support/accounts";
import { messagesFor, waitForMail } from "../support/mailbox";
import { appForTests } from "../support/store";

// Penetration test of 75cca6d, finding 11: sign-up answers `user_already_exists`. The answer
// stays (docs/accounts.md says why); the owner of the address is told of the attempt.

const { t } = appForTests();

test("a sign-up with the address of an existing account mails its owner, and changes nothing", async () => {
  const owner = await signUp(t.app, { email: "taken@example.com", name: "Theo Taken" });
  const attempt = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    payload: { email: "Taken@Example.com", password: "Another-Secret-91", name: "Someone Else" },
  });
  expect(attempt.statusCode).toBe(422);
  expect(attempt.headers["set-cookie"]).toBeUndefined();
  const mail = await waitForMail(
    t.app,
    owner.email,
    /tried to create a .* account with your address/,
  );
  expect(mail.text).toContain("Your account is unchanged and nobody was signed in to it.");
  expect(mail.text).toContain("Hello Theo Taken");

  // The owner's password still works; the attempt's does not.
  const ownSignIn = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email: owner.email, password: owner.password },
  });
  expect(ownSignIn.statusCode).toBe(200);
  const theirs = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email: owner.email, password: "Another-Secret-91" },
  });
  expect(theirs.statusCode).toBe(401);
});

test("a new address gets no such mail", async () => {
  const fresh = await signUp(t.app, { email: "fresh@example.com", name: "Fay Fresh" });
  await waitForMail(t.app, fresh.email, /verify|confirm/i);
  const all = await messagesFor(t.app, fresh.email);
  expect(all.some((m) => /tried to create/.test(m.subject))).toBe(false);
});
