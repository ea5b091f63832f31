import { expect, test } from "vitest";
import { decodeCsv, isHeader, parseLine, parseText, readQty, splitCells } from "./parse";

const read = (text: string) => parseText(text).map((l) => [l.line, l.number, l.qtyText]);

test("a line is number and quantity split by a tab, a semicolon, a comma or spaces", () => {
  expect(read("04465-02220\t2")).toEqual([[1, "04465-02220", "2"]]);
  expect(read("04465-02220;2")).toEqual([[1, "04465-02220", "2"]]);
  expect(read("04465-02220, 2")).toEqual([[1, "04465-02220", "2"]]);
  expect(read("04465-02220 2")).toEqual([[1, "04465-02220", "2"]]);
  expect(read("  04465-02220    2  ")).toEqual([[1, "04465-02220", "2"]]);
});

test("a tab wins over a semicolon, and a semicolon over a comma", () => {
  expect(read("a,b\t3")).toEqual([[1, "a,b", "3"]]);
  expect(read("a,b;3")).toEqual([[1, "a,b", "3"]]);
});

test("a number with spaces keeps them; the last word is the quantity only when it is digits", () => {
  expect(parseLine("5Q0 615 301 G 2", 1)).toEqual({
    line: 1,
    number: "5Q0 615 301 G",
    qtyText: "2",
    whole: "5Q0 615 301 G 2",
  });
  expect(parseLine("5Q0 615 301 G", 1)).toEqual({ line: 1, number: "5Q0 615 301 G", qtyText: "" });
});

test("a line without a quantity, or with more cells, keeps the first two", () => {
  expect(read("PW-1")).toEqual([[1, "PW-1", ""]]);
  expect(read("PW-1;3;front axle")).toEqual([[1, "PW-1", "3"]]);
  expect(read("PW-1;")).toEqual([[1, "PW-1", ""]]);
});

test("blank lines and empty rows are left out; line numbers stay those of the text", () => {
  expect(read("\n\nPW-1 1\r\n ; \r\n,,\r\nPW-2 2\r\rPW-3 3\n")).toEqual([
    [3, "PW-1", "1"],
    [6, "PW-2", "2"],
    [8, "PW-3", "3"],
  ]);
});

test("a header row is left out in its usual spellings", () => {
  for (const header of [
    "part number;qty",
    "Part number,Quantity",
    "SKU\tQTY",
    "part_number;quantity",
    "Part No.;Qty.",
    "item,amount",
    "Part number qty",
  ]) {
    expect(read(`${header}\nPW-1;2`), header).toEqual([[2, "PW-1", "2"]]);
  }
});

test("a first line that is a part and a quantity is no header", () => {
  expect(read("PW-1;2\nPW-2;3")).toHaveLength(2);
  expect(isHeader(["part", "2"])).toBe(false);
  expect(isHeader(["04465-02220", "two"])).toBe(false);
  // A header only counts as the first line.
  expect(read("PW-1;2\nqty;qty")).toHaveLength(2);
});

test("quoted cells: quotes are taken off, a quoted delimiter stays in the cell", () => {
  expect(splitCells('"0 451 103 316","4"', ",")).toEqual(["0 451 103 316", "4"]);
  expect(splitCells('"a,b",2', ",")).toEqual(["a,b", "2"]);
  expect(splitCells('"a""b";2', ";")).toEqual(['a"b', "2"]);
});

test("a byte order mark is dropped", () => {
  expect(read("\uFEFFpart;qty\nPW-1;2")).toEqual([[2, "PW-1", "2"]]);
  expect(decodeCsv(Buffer.from("\uFEFFPW-1;2", "utf8"))).toBe("PW-1;2");
  expect(read(decodeCsv(Buffer.from("\uFEFFPW-1;2", "utf8"))!)).toEqual([[1, "PW-1", "2"]]);
});

test("a file with NUL bytes is not text", () => {
  expect(decodeCsv(Buffer.from([0x50, 0x00, 0x57]))).toBeNull();
});

test("quantities: whole numbers from 1; none means 1; anything else is null", () => {
  expect(readQty("")).toBe(1);
  expect(readQty(undefined)).toBe(1);
  expect(readQty("3")).toBe(3);
  expect(readQty(" 12 ")).toBe(12);
  expect(readQty(7)).toBe(7);
  for (const bad of ["0", "-1", "2.5", "1e3", "two", "9999999", 0, -2, 1.5, 1e30, Number.NaN]) {
    expect(readQty(bad), String(bad)).toBeNull();
  }
  expect(readQty("1000000")).toBe(1_000_000);
  expect(readQty(1_000_001)).toBeNull();
});
