import { afterAll, afterEach, vi } from "vitest";
import { CatalogReadCache } from "../../src/server/catalog/read-cache";

/**
 * For a test file: a spy on the catalog read cache's early answers (`answerFor`, called by the
 * route's onRequest hook), cleared after each test and restored after all. Its last result is
 * undefined when the handler had to answer.
 */
export function spyOnCachedAnswers() {
  const answered = vi.spyOn(CatalogReadCache.prototype, "answerFor");
  afterEach(() => answered.mockClear());
  afterAll(() => answered.mockRestore());
  return answered;
}
