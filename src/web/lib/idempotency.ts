import { useState } from "react";
import { ApiError } from "./api-client";

/**
 * The `Idempotency-Key`s of one form's submissions (docs/idempotency.md): a submission sent
 * again after it went unanswered (the network failed, the store failed or restarted, or it said
 * the first is still being processed) goes with the same key, so the store does it at most
 * once and answers what it did. A new attempt gets a new key: after any answer the store gave
 * (a success, or a refusal such as "out of stock"), or when what is sent changed (another
 * address, quantity or total).
 */
export function submissionKeys() {
  let pending: { key: string; input: string } | undefined;
  return {
    /** Calls `send` with the key of this attempt of `input`. */
    async send<T>(input: unknown, send: (idempotencyKey: string) => Promise<T>): Promise<T> {
      const text = JSON.stringify(input) ?? "";
      if (pending?.input !== text) pending = { key: newKey(), input: text };
      const attempt = pending;
      try {
        const result = await send(attempt.key);
        if (pending === attempt) pending = undefined;
        return result;
      } catch (err) {
        if (answered(err) && pending === attempt) pending = undefined;
        throw err;
      }
    },
  };
}

/** A component's `submissionKeys`, kept while it is on the page. */
export const useSubmissionKeys = () => useState(submissionKeys)[0];

/**
 * The store answered, and its answer is the outcome: the next try is a new attempt. Not when
 * nothing came back, the store failed (5xx: it did nothing, or it will say what it did), or the
 * first request is still being processed.
 */
function answered(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status >= 500) return false;
  return err.code !== "idempotency_key_in_use";
}

/** A random key: a UUID, or 32 hex digits where the page is not a secure context. */
function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
