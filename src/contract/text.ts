import { z } from "zod";

// Every string a client sends goes through `text()` (or `hasControlCharacters` where no schema
// applies, such as Better Auth's bodies): NUL and the other control characters are refused
// with a clear message, instead of reaching PostgreSQL (which refuses NUL with a 500) or a page.

/* eslint-disable no-control-regex -- matching control characters is the point here */
/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, but tab, line feed and carriage return are allowed (text areas). */
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/* eslint-enable no-control-regex */

export const CONTROL_CHARACTERS_MESSAGE = "Must not contain control characters";

/** Whether `value` holds a character `text()` refuses. */
export const hasControlCharacters = (value: string, opts: { multiline?: boolean } = {}) =>
  (opts.multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(value);

/**
 * A string from a client: `z.string(params)` without control characters (`multiline` allows
 * tab, line feed and carriage return). Chain `.trim()`, `.max()` and the rest as usual.
 */
export const text = (params?: Parameters<typeof z.string>[0], opts: { multiline?: boolean } = {}) =>
  z
    .string(params)
    .refine((value) => !hasControlCharacters(value, opts), CONTROL_CHARACTERS_MESSAGE);

/** What a text over its length is told: "Must be 60 characters or shorter". */
export const tooLongMessage = (max: number) => `Must be ${max} characters or shorter`;

/** A name a person gives a thing (a company, a list, a zone): required, trimmed, `max` at most. */
export const requiredName = (max: number) =>
  text({ error: "Name is Required" })
    .trim()
    .min(1, "Name is Required")
    .max(max, tooLongMessage(max));

/** A trimmed text of at most `max` characters (longer: "Must be 60 characters or shorter"). */
export const shortText = (max: number) => text().trim().max(max, tooLongMessage(max));
