import { expect, test } from "vitest";
import { productCsvColumns } from "../../contract/product-csv";
import { escapeCell } from "../csv/csv-file";
import { parseCrossReferences, readProductCsv } from "./csv";

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

test("a file of more products than one import takes is refused whole, the counts written out", () => {
  const row = productCsvColumns.map(() => "x").join(",");
  const file = [productCsvColumns.join(","), ...Array.from({ length: 20_001 }, () => row)];
  const parsed = readProductCsv(Buffer.from(file.join("\n")));
  expect(parsed.rows).toEqual([]);
  expect(parsed.errors).toEqual([
    { line: 1, message: "The file has 20,001 products; import at most 20,000 at a time" },
  ]);
});
