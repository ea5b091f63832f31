import { createAuth, type AuthOptions } from "../../src/server/auth/auth";

/**
 * The app's Better Auth set-up on its own, without mail or logs, for tests that read what it is
 * configured with (building it reads no database).
 */
export function authForTest(
  opts: Pick<AuthOptions, "db" | "publicUrl" | "production"> & Partial<AuthOptions>,
) {
  return createAuth({
    secret: "test-secret-that-is-long-enough-0123456789",
    adminEmails: new Set(),
    mail: {
      passwordReset: async () => {},
      verifyEmail: async () => {},
      passwordChanged: async () => {},
      signUpAttempt: async () => {},
    },
    log: { warn: () => {}, error: () => {} },
    ...opts,
  });
}
