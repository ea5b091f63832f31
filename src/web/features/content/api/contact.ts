import { useQuery } from "@tanstack/react-query";
import type { Contact } from "#contract/contact";
import { apiGet } from "../../../lib/api-client";

/** The store's contact details (they change only with the configuration). */
export const useContact = () =>
  useQuery({
    queryKey: ["contact"],
    queryFn: () => apiGet<Contact>("/contact"),
    staleTime: 10 * 60_000,
  });
