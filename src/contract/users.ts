import { z } from "zod";

export const roles = ["admin", "user"] as const;
export type Role = (typeof roles)[number];

/** The signed-in user's profile (SPEC section 3). `name` is the display name. */
export const profileSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(roles),
  education: z.string(),
  address: z.string(),
  phoneNo: z.string(),
  linkedIn: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

/** What a user may change of their profile: name, email and role are not among it. */
export const profileUpdateSchema = z.strictObject({
  education: z.string().trim().max(200, "Must be 200 characters or shorter"),
  address: z.string().trim().max(300, "Must be 300 characters or shorter"),
  phoneNo: z
    .string()
    .trim()
    .max(20, "Must be 20 characters or shorter")
    .regex(/^(\+?[0-9][0-9 -]*)?$/, "Use digits, spaces and dashes, optionally starting with +"),
  linkedIn: z
    .string()
    .trim()
    .max(200, "Must be 200 characters or shorter")
    .refine((v) => v === "" || /^https:\/\/([a-z0-9-]+\.)*linkedin\.com\//i.test(v), {
      message: "Use a https://linkedin.com/… address",
    }),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const adminFlagSchema = z.object({ admin: z.boolean() });
