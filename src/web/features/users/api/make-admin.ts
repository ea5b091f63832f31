import type { MadeAdmin } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { useUserChange } from "./user-change";

export const makeAdmin = (email: string) =>
  apiSend<MadeAdmin>("PUT", `/user/admin/${encodeURIComponent(email)}`);

// Awaited, so the button stays busy until the list shows the new role (and hides it).
export const useMakeAdmin = () => useUserChange(makeAdmin);

export const removeAdmin = (email: string) =>
  apiSend<MadeAdmin>("DELETE", `/user/admin/${encodeURIComponent(email)}`);

export const useRemoveAdmin = () => useUserChange(removeAdmin);
