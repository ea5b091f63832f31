import { z } from "zod";

/**
 * The store's contact details as the Contact page shows them (`GET /api/contact`), from the
 * configuration (docs/configuration.md): each address is its lines; anything not set is empty.
 */
export const contactSchema = z.object({
  name: z.string(),
  address: z.array(z.string()),
  /** Where returned parts go (the store's address unless RETURNS_ADDRESS says otherwise). */
  returnsAddress: z.array(z.string()),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** Opening hours, one line each: "Mon–Fri 8:00–18:00". */
  hours: z.array(z.string()),
});
export type Contact = z.infer<typeof contactSchema>;
