import { expect, test } from "vitest";
import { multipart, postNotMultipart } from "../../../tests/support/multipart";
import { storeForTests } from "../../../tests/support/store";
import { MAX_CSV_BYTES } from "../../contract/product-csv";

const { t, call, admin } = storeForTests({
  admin: { email: "csv-admin@example.com", name: "Casey" },
});

const upload = (url: string, data: Buffer) => {
  const body = multipart({ data, filename: "products.csv", type: "text/csv", field: "file" });
  return t.app.inject({
    method: "POST",
    url,
    payload: body.payload,
    headers: { ...body.headers, cookie: admin.cookie },
  });
};

test("a file over the cap is refused with 413 and says the limit", async () => {
  const res = await upload(
    "/api/admin/product-imports/preview",
    Buffer.alloc(MAX_CSV_BYTES + 10, 0x61),
  );
  expect(res.statusCode).toBe(413);
  expect(res.json().message).toBe("The file must be 5 MiB or smaller");
});

test("a body that is not multipart is refused with 415", async () => {
  const res = await postNotMultipart(t.app, admin, "/api/admin/product-imports");
  expect(res.statusCode).toBe(415);
});

test("the export is a UTF-8 CSV download with a BOM and the header row", async () => {
  const res = await call(admin, "GET", "/api/admin/products/export.csv");
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="products-/);
  expect(res.body.startsWith("\uFEFFpart_number,name,description,category,price,stock")).toBe(true);
});

test("an empty file previews as one clear error, and its import is refused with 400", async () => {
  const preview = await upload("/api/admin/product-imports/preview", Buffer.from(""));
  expect(preview.statusCode).toBe(200);
  expect(preview.json().errors).toEqual([{ line: 1, message: "The file is empty" }]);
  const res = await upload("/api/admin/product-imports", Buffer.from(""));
  expect(res.statusCode).toBe(400);
});
