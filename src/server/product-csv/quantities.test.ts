import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { products } from "../catalog/tables";
import { createProductCsvService } from "./service";

// The product CSV's retail_minimum and pack_size columns, and the trade minimum in whole packs
// (docs/admin.md "Product CSV import and export", docs/pricing.md "Quantities by group").

const base =
  "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references";
const img = "/images/products/spark-plug.svg";
const silent = { error: () => {} };
const admin = { id: "csv-quantities-admin", email: "admin@example.com" };
/** A row of the base columns, then any extra cells. */
const row = (pn: string, minimum: number | string, ...extra: string[]) =>
  [pn, `Plug ${pn}`, "Sold by the box", "Ignition", "8.00", "500", minimum, "12", img, "", ...extra]
    .map(String)
    .join(",");
const file = (header: string, ...rows: string[]) =>
  Buffer.from([header, ...rows].join("\n") + "\n");
const withQuantities = `${base},retail_minimum,pack_size`;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const quantitiesOf = async (partNumber: string) => {
  const [p] = await database.db
    .select({
      minimumOrder: products.minimumOrder,
      retailMinimum: products.retailMinimum,
      packSize: products.packSize,
    })
    .from(products)
    .where(eq(products.partNumber, partNumber));
  return p;
};

async function importFile(data: Buffer) {
  const service = createProductCsvService(database.db, silent);
  const { job, finished } = await service.start(data, admin);
  await finished;
  return service.job(job.id);
}

test("the columns set each product's retail minimum and pack size; the export writes them and imports back", async () => {
  const service = createProductCsvService(database.db, silent);
  const data = file(withQuantities, row("QC-1", 10, "2", "5"), row("QC-2", 3, "", ""));
  expect((await service.preview(data)).errors).toEqual([]);
  expect((await importFile(data)).status).toBe("done");
  expect(await quantitiesOf("QC-1")).toEqual({ minimumOrder: 10, retailMinimum: 2, packSize: 5 });
  // Empty cells are 1, as a product added without them.
  expect(await quantitiesOf("QC-2")).toEqual({ minimumOrder: 3, retailMinimum: 1, packSize: 1 });

  const exported = await service.exportCsv();
  const [header, ...lines] = exported.split("\r\n");
  const names = header!.split(",");
  expect(names).toContain("retail_minimum");
  expect(names).toContain("pack_size");
  const cells = lines.find((l) => l.startsWith("QC-1,"))!.split(",");
  expect([cells[names.indexOf("retail_minimum")], cells[names.indexOf("pack_size")]]).toEqual([
    "2",
    "5",
  ]);
  const again = await service.preview(Buffer.from(exported));
  expect(again.errors).toEqual([]);
});

test("a file without the columns leaves each product's own; bad values are row errors in words", async () => {
  const service = createProductCsvService(database.db, silent);
  await importFile(file(withQuantities, row("QC-3", 20, "4", "10")));
  // No pack_size column: the product's pack of 10 still holds the minimum to whole packs.
  const without = await service.preview(file(base, row("QC-3", 15), row("QC-4", 15)));
  expect(without.errors).toEqual([
    {
      line: 2,
      column: "minimum_order",
      message: "The minimum order must be a multiple of the pack size (10)",
    },
  ]);
  expect((await importFile(file(base, row("QC-3", 30)))).status).toBe("done");
  expect(await quantitiesOf("QC-3")).toEqual({ minimumOrder: 30, retailMinimum: 4, packSize: 10 });

  const bad = await service.preview(
    file(
      withQuantities,
      row("QC-5", 10, "0", "5"),
      row("QC-6", 10, "2", "many"),
      row("QC-7", 10, "1.5", "2"),
      row("QC-8", 15, "1", "10"),
    ),
  );
  expect(bad.errors).toEqual([
    { line: 2, column: "retail_minimum", message: "Must be at least 1" },
    { line: 3, column: "pack_size", message: "Enter a number" },
    { line: 4, column: "retail_minimum", message: "Enter a whole number" },
    {
      line: 5,
      column: "minimum_order",
      message: "The minimum order must be a multiple of the pack size (10)",
    },
  ]);
  expect(await quantitiesOf("QC-5")).toBeUndefined();
});

test("an import of such a file is refused before anything is written", async () => {
  const service = createProductCsvService(database.db, silent);
  await importFile(file(withQuantities, row("QC-9", 8, "1", "4")));
  const started = await service.start(file(base, row("QC-9", 9)), admin).catch((e: Error) => e);
  expect(started).toMatchObject({
    statusCode: 400,
    message: "The file has 1 error; preview it, fix them and upload it again",
  });
  expect(await quantitiesOf("QC-9")).toEqual({ minimumOrder: 8, retailMinimum: 1, packSize: 4 });
});
