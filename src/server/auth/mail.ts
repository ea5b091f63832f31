import type { AuthMail } from "./auth";
import { RESET_PASSWORD_TOKEN_SECONDS, VERIFY_EMAIL_TOKEN_SECONDS } from "./auth";
import type { Mailer } from "../mail/mailer";
import { hello, layout, STORE, type MailContent } from "../mail/layout";

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

export function passwordResetMail(opts: {
  name: string;
  url: string;
  expiresInMinutes: number;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `Reset your ${STORE} password`,
    greeting: hello(opts.name),
    paragraphs: [
      `Someone (we hope you) asked to reset the password of your ${STORE} account. Choose a new password with the link below.`,
      `The link works once, for ${opts.expiresInMinutes} minutes. Setting a new password signs you out everywhere.`,
    ],
    action: { label: "Set a new password", url: opts.url },
    after: ["If you did not ask for this, ignore this email: your password stays as it is."],
    publicUrl: opts.publicUrl,
  });
}

export function verifyEmailMail(opts: {
  name: string;
  url: string;
  expiresInHours: number;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: `Confirm your email address for ${STORE}`,
    greeting: hello(opts.name),
    paragraphs: [
      `Welcome to ${STORE}. Please confirm that this email address is yours.`,
      `The link works for ${opts.expiresInHours} hours.`,
    ],
    action: { label: "Confirm my email address", url: opts.url },
    after: ["If you did not create an account, ignore this email."],
    publicUrl: opts.publicUrl,
  });
}

export function signUpAttemptMail(opts: { name: string; publicUrl: string }): MailContent {
  return layout({
    subject: `Someone tried to create a ${STORE} account with your address`,
    greeting: hello(opts.name),
    paragraphs: [
      `Someone just tried to create a new ${STORE} account with this email address. Your account is unchanged and nobody was signed in to it.`,
      `If it was you: you already have an account. Sign in, or choose a new password with "Forgot password?" on the login page.`,
    ],
    action: { label: "Go to the login page", url: `${opts.publicUrl}/login` },
    publicUrl: opts.publicUrl,
  });
}

export function passwordChangedMail(opts: { name: string; publicUrl: string }): MailContent {
  return layout({
    subject: `Your ${STORE} password was changed`,
    greeting: hello(opts.name),
    paragraphs: [
      `The password of your ${STORE} account was just changed.`,
      `If this was not you, choose a new password at once with "Forgot password?" on the login page.`,
    ],
    action: { label: "Go to the login page", url: `${opts.publicUrl}/login` },
    publicUrl: opts.publicUrl,
  });
}
