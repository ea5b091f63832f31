import { expect, test } from "vitest";
import { escapeCell, parseCrossReferences } from "./csv";

test("a cross-references cell reads KIND:Brand:Number entries split by |", () => {
  expect(parseCrossReferences("")).toEqual([]);
  expect(parseCrossReferences("OE:Toyota:04465-02220| comp : Bosch : 0 986 494 055")).toEqual([
    { kind: "OE", brand: "Toyota", number: "04465-02220" },
    { kind: "competitor", brand: "Bosch", number: "0 986 494 055" },
  ]);
  // A brand may hold a colon: the number is after the last one.
  expect(parseCrossReferences("SUP:Parts:Works:PW-1")).toEqual([
    { kind: "superseded", brand: "Parts:Works", number: "PW-1" },
  ]);
  expect(() => parseCrossReferences("Toyota 04465")).toThrow(/is not KIND:Brand:Number/);
  expect(() => parseCrossReferences("XX:Toyota:1")).toThrow(/KIND is OE, COMP or SUP/);
  expect(() => parseCrossReferences("OE:04465")).toThrow(/is not KIND:Brand:Number/);
});

test("cells a spreadsheet would run as formulas are escaped, others are kept", () => {
  for (const cell of ["=1+1", "+1", "-40 °C", "@SUM(A1)", "\tx", "\rx"]) {
    expect(escapeCell(cell)).toBe(`'${cell}`);
  }
  expect(escapeCell("Brake disc")).toBe("Brake disc");
  expect(escapeCell("'quoted")).toBe("''quoted");
});
