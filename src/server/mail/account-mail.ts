import type { AuthMail } from "../auth/auth";
import { RESET_PASSWORD_TOKEN_SECONDS, VERIFY_EMAIL_TOKEN_SECONDS } from "../auth/auth";
import type { Mailer } from "./mailer";
import {
  passwordChangedMail,
  passwordResetMail,
  signUpAttemptMail,
  verifyEmailMail,
} from "./templates";

/** Where the links in account emails lead (pages of the web app, or Better Auth's endpoint). */
export const accountLinks = {
  resetPassword: (publicUrl: string, token: string) =>
    `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`,
  verifyEmail: (publicUrl: string, token: string) =>
    `${publicUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent("/email-verified")}`,
};

/** Better Auth's account emails, written with the store's templates and queued in the outbox. */
export function createAccountMail(mailer: Mailer, publicUrl: string): AuthMail {
  return {
    async passwordReset(user, token) {
      await mailer.send({
        to: user.email,
        ...passwordResetMail({
          name: user.name,
          url: accountLinks.resetPassword(publicUrl, token),
          expiresInMinutes: RESET_PASSWORD_TOKEN_SECONDS / 60,
          publicUrl,
        }),
      });
    },
    async verifyEmail(user, token) {
      await mailer.send({
        to: user.email,
        ...verifyEmailMail({
          name: user.name,
          url: accountLinks.verifyEmail(publicUrl, token),
          expiresInHours: VERIFY_EMAIL_TOKEN_SECONDS / 3600,
          publicUrl,
        }),
      });
    },
    async passwordChanged(user) {
      await mailer.send({ to: user.email, ...passwordChangedMail({ name: user.name, publicUrl }) });
    },
    async signUpAttempt(user) {
      await mailer.send({ to: user.email, ...signUpAttemptMail({ name: user.name, publicUrl }) });
    },
  };
}
