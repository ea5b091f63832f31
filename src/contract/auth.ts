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
