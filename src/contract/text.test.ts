import { describe, expect, test } from "vitest";
import { CONTROL_CHARACTERS_MESSAGE, text } from "./text";

describe("text()", () => {
  const line = text().trim().max(50);
  const area = text(undefined, { multiline: true }).trim().max(50);
  const problem = (schema: typeof line, value: string) =>
    schema.safeParse(value).error?.issues[0]?.message;

  test.each(["\u0000", "a\u0000b", "\u0001", "\u001b[31m", "\u007f", "\u0085", "\u009f"])(
    "refuses %j anywhere",
    (value) => {
      expect(problem(line, value)).toBe(CONTROL_CHARACTERS_MESSAGE);
      expect(problem(area, value)).toBe(CONTROL_CHARACTERS_MESSAGE);
    },
  );

  test("tab, line feed and carriage return only where text is multi-line", () => {
    expect(problem(line, "a\tb")).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(problem(line, "a\r\nb")).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(area.parse(" a\r\n\tb ")).toBe("a\r\n\tb");
  });

  test("ordinary text of any script passes, and the chained rules still apply", () => {
    expect(line.parse("  Ölfilter für 3er – 機油濾清器 🚗 ")).toBe(
      "Ölfilter für 3er – 機油濾清器 🚗",
    );
    expect(line.safeParse("x".repeat(51)).success).toBe(false);
    expect(text({ error: "Name is Required" }).safeParse(undefined).error?.issues[0]?.message).toBe(
      "Name is Required",
    );
  });
});
