import { z } from "zod";
import { text } from "./text";

// The sign-in and sign-up forms' rules, with the exact messages of SPEC section 5.

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 6;

const email = text()
  .trim()
  .min(1, "Email is Required")
  .max(254, "Provide a valid Email")
  .regex(EMAIL_PATTERN, "Provide a valid Email");

const password = text()
  .min(1, "Password is Required")
  .min(MIN_PASSWORD_LENGTH, "Must be 6 characters or longer")
  .max(128, "Must be 128 characters or shorter");

export const loginSchema = z.object({ email, password });
export type LoginInput = z.infer<typeof loginSchema>;

export const signupSchema = z.object({
  name: text().trim().min(1, "Name is Required").max(80, "Must be 80 characters or shorter"),
  email,
  password,
});
export type SignupInput = z.infer<typeof signupSchema>;

// Account recovery (issue 13): the same password rules and messages as sign-up.

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const PASSWORDS_DIFFER = "The passwords do not match";

export const resetPasswordSchema = z
  .object({ password, confirm: text() })
  .refine((v) => v.password === v.confirm, { message: PASSWORDS_DIFFER, path: ["confirm"] });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: text()
      .min(1, "Password is Required")
      .max(128, "Must be 128 characters or shorter"),
    newPassword: password,
    confirm: text(),
  })
  .refine((v) => v.newPassword === v.confirm, { message: PASSWORDS_DIFFER, path: ["confirm"] });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** One signed-in browser of the caller's account (My Profile → "Where you are signed in"). */
export const activeSessionSchema = z.object({
  id: z.string(),
  /** When this sign-in happened. */
  createdAt: z.iso.datetime(),
  /** When the session was last renewed (at most a day behind its last use). */
  lastSeenAt: z.iso.datetime(),
  /** When it ends if unused (the idle limit); it also ends at `endsBy` whatever happens. */
  expiresAt: z.iso.datetime(),
  /** The absolute limit: sign-in time plus SESSION_ABSOLUTE_HOURS. */
  endsBy: z.iso.datetime(),
  /** "Chrome on Windows", "Safari on iPhone", … or "Unknown browser". */
  device: z.string(),
  /** The client address as recorded at sign-in (through the trusted proxies only). */
  ipAddress: z.string().nullable(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const activeSessionListSchema = z.object({ sessions: z.array(activeSessionSchema) });
export type ActiveSessionList = z.infer<typeof activeSessionListSchema>;

export const sessionIdParamsSchema = z.object({
  id: text().regex(/^[A-Za-z0-9_-]{1,100}$/, { message: "Malformed session id" }),
});

/**
 * `DELETE /api/user/sessions?except=current`: every session but the caller's. The query says so
 * explicitly, so that no stray request signs someone out everywhere.
 */
export const endOtherSessionsQuerySchema = z.object({
  except: z.literal("current", { message: "Say which sessions stay: except=current" }),
});

/** How many other sessions were ended. */
export const endedSessionsSchema = z.object({ ended: z.number().int().min(0) });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
