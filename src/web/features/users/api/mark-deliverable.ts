import type { MarkedDeliverable } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { useUserChange } from "./user-change";

/** Takes the "Email bounces" mark off a user's address (the admin knows it works again). */
export const markDeliverable = (userId: string) =>
  apiSend<MarkedDeliverable>("DELETE", `/users/${encodeURIComponent(userId)}/email-bounce`);

// Awaited, so the button stays busy until the list shows the mark gone (and hides it).
export const useMarkDeliverable = () => useUserChange(markDeliverable);
