import { describe, expect, it } from "vitest";
import { isUniqueViolation, postgresError } from "./postgres-errors";

/** What the pg driver throws: a DatabaseError has a SQLSTATE code and a severity. */
const driverError = (code: string, constraint?: string) =>
  Object.assign(new Error("duplicate key"), { code, severity: "ERROR", constraint, detail: "d" });

describe("postgresError", () => {
  it("finds the driver's error inside the causes Drizzle wraps it in", () => {
    const wrapped = new Error("Failed query", { cause: driverError("23505", "x_unique") });
    expect(postgresError(wrapped)).toEqual({ code: "23505", constraint: "x_unique", detail: "d" });
  });

  it("ignores errors that only look alike (a Node error code, no severity)", () => {
    const nodeError = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    expect(postgresError(nodeError)).toBeUndefined();
    expect(postgresError("text")).toBeUndefined();
    expect(postgresError(undefined)).toBeUndefined();
  });

  it("stops after a few causes instead of walking a cycle", () => {
    const a: { cause?: unknown } = {};
    a.cause = a;
    expect(postgresError(a)).toBeUndefined();
  });
});

describe("isUniqueViolation", () => {
  it("is true only for a duplicate under the named constraint", () => {
    const err = new Error("wrapped", { cause: driverError("23505", "names_unique") });
    expect(isUniqueViolation(err, "names_unique")).toBe(true);
    expect(isUniqueViolation(err, "other_unique")).toBe(false);
    expect(isUniqueViolation(driverError("23503", "names_unique"), "names_unique")).toBe(false);
  });
});
