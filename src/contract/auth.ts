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
