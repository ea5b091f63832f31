import { text } from "./text";

// Phone numbers as people type them: "+44 113 496 0000", "(0113) 496-0000", "07700 900123".
// Kept as digits with an optional leading + (at most 15 digits, as E.164 allows), so the same
// number typed two ways is stored the same way.

export const PHONE_MESSAGE = "Enter a phone number: 6 to 15 digits, spaces, dashes or brackets";

/** The number as stored: separators removed. */
export const normalizePhone = (typed: string) => typed.replace(/[\s().-]/g, "");

/** Whether `typed` is a phone number: digits and separators, an optional leading +. */
export const isPhoneNumber = (typed: string) =>
  /^\+?[0-9\s().-]+$/.test(typed) && /^\+?[0-9]{6,15}$/.test(normalizePhone(typed));

/** A required phone number (the order form's), normalised. */
export const phoneNumberSchema = text({ message: "Phone is Required" })
  .trim()
  .min(1, "Phone is Required")
  .max(30, PHONE_MESSAGE)
  .refine(isPhoneNumber, PHONE_MESSAGE)
  .transform(normalizePhone);

/** A phone number that may be left empty (the profile's), normalised. */
export const optionalPhoneNumberSchema = text()
  .trim()
  .max(30, PHONE_MESSAGE)
  .refine((typed) => typed === "" || isPhoneNumber(typed), PHONE_MESSAGE)
  .transform(normalizePhone);
