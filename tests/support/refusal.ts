import { HttpError } from "../../src/server/errors";

/**
 * The HttpError a service call's `work` throws (its status, message and fields), for a test to
 * compare with what it expects; anything else, or no error at all, fails the test.
 */
export async function refusal(work: Promise<unknown>) {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(err)}`);
  return { status: err.statusCode, message: err.message, fields: err.fields };
}
