import { expect, test } from "vitest";
import { productCsvColumns } from "../../contract/product-csv";
import { escapeCell } from "../csv/csv-file";
import { attributeMessages } from "../../contract/attributes";
import { attributesCell, parseAttributes, parseCrossReferences, readProductCsv } from "./csv";

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

test("an attributes cell reads Name=Value entries split by ; and writes them back the same", () => {
  expect(parseAttributes("")).toEqual([]);
  expect(parseAttributes(" Diameter = 280 ;Vent type=Vented; ")).toEqual([
    { name: "Diameter", value: "280" },
    { name: "Vent type", value: "Vented" },
  ]);
  // A ; = or \\ inside a name or value is escaped with \\; a later = belongs to the value.
  const awkward = [
    { name: "Ratio a=b", value: "1;2" },
    { name: "Path", value: "C:\\x=y" },
  ];
  const cell = attributesCell(awkward);
  expect(cell).toBe("Ratio a\\=b=1\\;2; Path=C:\\\\x\\=y");
  expect(parseAttributes(cell)).toEqual(awkward);
  expect(parseAttributes("Note=a=b")).toEqual([{ name: "Note", value: "a=b" }]);
  // An empty value is read (the service says the attribute needs one).
  expect(parseAttributes("Thread=")).toEqual([{ name: "Thread", value: "" }]);
  expect(() => parseAttributes("Diameter 280")).toThrow(
    `"Diameter 280" ${attributeMessages.csvFormat}`,
  );
  expect(() => parseAttributes("=280")).toThrow(attributeMessages.csvFormat);
  expect(() => parseAttributes("Diameter=280; diameter=300")).toThrow(
    attributeMessages.csvTwice("diameter"),
  );
});
