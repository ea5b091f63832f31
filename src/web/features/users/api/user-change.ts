import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/**
 * An admin's change to a user (a role, a bounce mark, a customer group): the users' lists are read
 * again once it is done, and the mutation settles only then, so its button stays busy until All
 * Users shows the change.
 */
export function useUserChange<I, O>(change: (input: I) => Promise<O>) {
  return useInvalidatingMutation(queryKeys.users.all, change);
}
