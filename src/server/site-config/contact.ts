import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { contactSchema, type Contact } from "../../contract/contact";
import type { ContactDetails } from "../config";
import { fixedPublicRoute } from "./routes";

/** The Contact page's details (`/contact`, docs/returns.md): public, from the configuration. */
export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactDetails }> = async (
  app,
  { contact },
) => {
  const answer: Contact = { ...contact };
  fixedPublicRoute(
    app,
    "/contact",
    "The store's address, returns address, phone, email and opening hours",
    contactSchema,
    answer,
  );
};
