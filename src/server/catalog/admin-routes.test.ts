import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { tempFolderForTests } from "../../../tests/support/temp-folder";
import { caliperProductBody, insertProduct } from "../../../tests/support/factories";
import { placeTestOrder } from "../../../tests/support/destination";
import { productFieldMessages } from "../../contract/products";
import { productMessages } from "../../contract/products";
import { orderItems, orders } from "../orders/tables";
import { products } from "./tables";
import { multipart, tinyGif } from "../../../tests/support/multipart";
import { payWithTestCard } from "../../../tests/support/payments";

// Uploads go to DATA_DIR/uploads: a folder of this file's own, not the repository's data/.
const dataDir = tempFolderForTests("catalog-admin-test-");
const { t, admin, customer, other } = storeForTests({
  admin: { email: "catalog-admin@example.com", name: "Avery" },
  shipsToTestAddress: true,
  customers: { customer: { name: "Casey" }, other: { name: "Olly" } },
  env: { DATA_DIR: dataDir },
});

const as = (who?: TestAccount) => (who ? { cookie: who.cookie } : {});
const create = (payload: object, who?: TestAccount) =>
  t.app.inject({ method: "POST", url: "/api/products", headers: as(who), payload });
const patch = (id: string, payload: object, who?: TestAccount) =>
  t.app.inject({ method: "PATCH", url: `/api/products/${id}`, headers: as(who), payload });
const remove = (id: string, who?: TestAccount) =>
  t.app.inject({ method: "DELETE", url: `/api/products/${id}`, headers: as(who) });
const getProduct = (id: string) => t.app.inject({ method: "GET", url: `/api/products/${id}` });
const rowOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0];

// --- Images built byte by byte, so the test knows exactly what it sends ---

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid 2x2 red PNG (8-bit RGB). */
function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.from([0, 255, 0, 0, 255, 0, 0]); // filter byte, then two red pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.concat([row, row]))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);

const upload = (file: Parameters<typeof multipart>[0], who?: TestAccount) => {
  const body = multipart(file);
  return t.app.inject({
    method: "POST",
    url: "/api/products/images",
    headers: { ...body.headers, ...as(who) },
    payload: body.payload,
  });
};
const png = { data: tinyPng(), filename: "caliper.png", type: "image/png" };

describe("authorisation", () => {
  test("POST /api/products: anonymous 401, customers 403, admin 201", async () => {
    expect((await create(caliperProductBody())).statusCode).toBe(401);
    for (const who of [customer, other]) {
      const res = await create(caliperProductBody(), who);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: "forbidden", message: "Only admins can do this" });
    }
    expect((await create(caliperProductBody(), admin)).statusCode).toBe(201);
  });

  test("PATCH /api/products/{id}: anonymous 401, customers 403, admin 200", async () => {
    const p = await insertProduct(t.database.db, { availableQuantity: 10 });
    expect(
      (await patch(p.id, { availableQuantity: 99, availableQuantityWas: 10 })).statusCode,
    ).toBe(401);
    expect(
      (await patch(p.id, { availableQuantity: 99, availableQuantityWas: 10 }, customer)).statusCode,
    ).toBe(403);
    expect(
      (await patch(p.id, { availableQuantity: 99, availableQuantityWas: 10 }, other)).statusCode,
    ).toBe(403);
    expect((await rowOf(p.id))?.availableQuantity).toBe(10);
    expect(
      (await patch(p.id, { availableQuantity: 99, availableQuantityWas: 10 }, admin)).statusCode,
    ).toBe(200);
  });

  test("DELETE /api/products/{id}: anonymous 401, customers 403, admin 200", async () => {
    const p = await insertProduct(t.database.db);
    expect((await remove(p.id)).statusCode).toBe(401);
    expect((await remove(p.id, customer)).statusCode).toBe(403);
    expect((await remove(p.id, other)).statusCode).toBe(403);
    expect(await rowOf(p.id)).toBeDefined();
    const res = await remove(p.id, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });

  test("POST /api/products/images: anonymous 401, customers 403, admin 201", async () => {
    expect((await upload(png)).statusCode).toBe(401);
    expect((await upload(png, customer)).statusCode).toBe(403);
    expect((await upload(png, other)).statusCode).toBe(403);
    expect((await upload(png, admin)).statusCode).toBe(201);
  });

  test("who may call is settled before the body is read: a bad body from a customer is 403", async () => {
    expect((await create({}, customer)).statusCode).toBe(403);
    expect((await create({})).statusCode).toBe(401);
  });
});

describe("POST /api/products", () => {
  test("adds a product: money in cents, the creator's email from the session", async () => {
    const input = caliperProductBody();
    const res = await create(input, admin);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      product: {
        ...input,
        partNumber: input.partNumber.toUpperCase(),
        crossReferences: [],
        coreDeposit: null,
        breaks: [],
        attributes: [],
        weightGrams: 0,
        lengthMm: null,
        widthMm: null,
        heightMm: null,
        retailMinimum: 1,
        packSize: 1,
        _id: expect.any(String),
        createdAt: expect.any(String),
        email: admin.email,
      },
    });
    const row = await rowOf(body.product._id);
    expect(row).toMatchObject({ priceCents: 8999, warrantyMonths: 24, creatorEmail: admin.email });

    // The public API shows it, without the creator's email.
    const pub = await getProduct(body.product._id);
    expect(pub.json()).toMatchObject({ name: input.name, price: 89.99 });
    expect(pub.json()).not.toHaveProperty("email");
    expect(productMessages.added).toBe("Your product is added");
    expect(productMessages.failed).toBe("there is a problem adding your product! try again");
  });

  test("a creator email in the body is refused as an unknown key, never stored", async () => {
    const res = await create({ ...caliperProductBody(), email: "someone-else@example.com" }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "validation" });
    expect(res.json().message).toContain('"email"');
    const stored = await t.database.db
      .select()
      .from(products)
      .where(eq(products.creatorEmail, "someone-else@example.com"));
    expect(stored).toEqual([]);
  });

  test("trims text fields and accepts the edges of every range", async () => {
    const res = await create(
      {
        ...caliperProductBody(),
        name: "  Spark plug  ",
        price: 0,
        minimumOrder: 1,
        availableQuantity: 1,
        warranty: 0,
      },
      admin,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().product).toMatchObject({ name: "Spark plug", price: 0 });
    const top = await create(
      {
        ...caliperProductBody(),
        price: 999_999.99,
        minimumOrder: 10_000_000,
        availableQuantity: 10_000_000,
        warranty: 600,
      },
      admin,
    );
    expect(top.statusCode).toBe(201);
    expect(top.json().product.price).toBe(999_999.99);
    expect((await rowOf(top.json().product._id))?.priceCents).toBe(99_999_999);
    // 0.29 is 28.999999999999996 in binary: still exactly 29 cents.
    const cents = await create({ ...caliperProductBody(), price: 0.29 }, admin);
    expect((await rowOf(cents.json().product._id))?.priceCents).toBe(29);
  });

  test.each([
    "/images/products/oil-filter.svg",
    "http://parts.example.com/img/caliper.jpg",
    "https://parts.example.com/img/caliper.jpg?size=large",
    "/uploads/0b0f2a5e-8c1b-4f0a-9c39-7e5a4d3c2b1a.png",
  ])("accepts the image link %s", async (img) => {
    expect((await create({ ...caliperProductBody(), img }, admin)).statusCode).toBe(201);
  });

  // An undefined value leaves the field out of the JSON body.
  test.each<[string, Record<string, unknown>, string, string]>([
    ["no name", { name: undefined }, "name", "Name is Required"],
    ["a blank name", { name: "   " }, "name", "Name is Required"],
    ["a long name", { name: "x".repeat(121) }, "name", "Must be 120 characters or shorter"],
    ["no price", { price: undefined }, "price", "Price is Required"],
    ["a null price", { price: null }, "price", "Price is Required"],
    ["a text price", { price: "12" }, "price", "Enter a number"],
    ["three decimals", { price: 1.234 }, "price", "Use at most 2 decimals"],
    ["a negative price", { price: -1 }, "price", "Must be 0 or more"],
    ["a huge price", { price: 1_000_000 }, "price", "Must be less than 1,000,000"],
    ["no minimum order", { minimumOrder: undefined }, "minimumOrder", "Minimum order is Required"],
    ["minimum order 0", { minimumOrder: 0 }, "minimumOrder", "Minimum order must be at least 1"],
    ["a fractional minimum", { minimumOrder: 1.5 }, "minimumOrder", "Enter a whole number"],
    [
      "minimum above stock",
      { minimumOrder: 41, availableQuantity: 40 },
      "minimumOrder",
      "Minimum order cannot exceed the available quantity",
    ],
    [
      "no quantity",
      { availableQuantity: undefined },
      "availableQuantity",
      "Available quantity is Required",
    ],
    ["a text quantity", { availableQuantity: "ten" }, "availableQuantity", "Enter a number"],
    ["a negative quantity", { availableQuantity: -1 }, "availableQuantity", "Must be 0 or more"],
    [
      "a huge quantity",
      { availableQuantity: 10_000_001 },
      "availableQuantity",
      "Must be 10,000,000 or less",
    ],
    ["no warranty", { warranty: undefined }, "warranty", "Warranty is Required"],
    ["a fractional warranty", { warranty: 1.5 }, "warranty", "Enter a whole number"],
    ["a long warranty", { warranty: 601 }, "warranty", "Must be 600 months or less"],
    [
      "no description",
      { shortDescription: undefined },
      "shortDescription",
      "Description is Required",
    ],
    [
      "an empty description",
      { shortDescription: "" },
      "shortDescription",
      "Description is Required",
    ],
    [
      "a long description",
      { shortDescription: "x".repeat(1001) },
      "shortDescription",
      "Must be 1000 characters or shorter",
    ],
    ["no image", { img: undefined }, "img", "Image link is Required"],
    ["an empty image", { img: " " }, "img", "Image link is Required"],
    [
      "a script link",
      { img: "javascript:alert(1)" },
      "img",
      "Use an http(s) link or upload an image",
    ],
    [
      "an ftp link",
      { img: "ftp://example.com/a.png" },
      "img",
      "Use an http(s) link or upload an image",
    ],
    ["a server path", { img: "/etc/passwd" }, "img", "Use an http(s) link or upload an image"],
    [
      "a protocol-relative path",
      { img: "/images//evil.example.com/a.png" },
      "img",
      "Use an http(s) link or upload an image",
    ],
    [
      "a long link",
      { img: `https://example.com/${"a".repeat(2000)}.png` },
      "img",
      "Must be 2000 characters or shorter",
    ],
  ])("%s: 400 with the message beside %s", async (_, change, field, message) => {
    const res = await create({ ...caliperProductBody(), ...change }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "validation", fields: { [field]: message } });
  });

  test("an empty body names every missing field", async () => {
    const res = await create({}, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      partNumber: "Part number is Required",
      category: "Choose a category",
      name: "Name is Required",
      price: "Price is Required",
      minimumOrder: "Minimum order is Required",
      availableQuantity: "Available quantity is Required",
      warranty: "Warranty is Required",
      shortDescription: "Description is Required",
      img: "Image link is Required",
    });
  });
});

describe("PATCH /api/products/{id}", () => {
  test("replenishes stock and leaves every other field alone", async () => {
    const p = await insertProduct(t.database.db, { availableQuantity: 3, minimumOrder: 2 });
    const res = await patch(p.id, { availableQuantity: 500, availableQuantityWas: 3 }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: p.id,
      name: p.name,
      availableQuantity: 500,
      minimumOrder: 2,
      price: p.priceCents / 100,
      email: p.creatorEmail,
    });
    expect((await getProduct(p.id)).json().availableQuantity).toBe(500);
  });

  test("a new stock is refused if orders changed it since the form was opened", async () => {
    const p = await insertProduct(t.database.db, { availableQuantity: 330, minimumOrder: 2 });
    // The admin opened the form at 330 (and means "+50": 380); meanwhile 30 were ordered.
    await t.database.db
      .update(products)
      .set({ availableQuantity: 300 })
      .where(eq(products.id, p.id));
    const res = await patch(p.id, { availableQuantity: 380, availableQuantityWas: 330 }, admin);
    expect(res.statusCode).toBe(409);
    const message =
      "Orders changed the stock to 300 since you opened this form: check the number and save again";
    expect(res.json()).toMatchObject({ message, fields: { availableQuantity: message } });
    expect((await getProduct(p.id)).json().availableQuantity).toBe(300); // nothing overwritten
    const again = await patch(p.id, { availableQuantity: 350, availableQuantityWas: 300 }, admin);
    expect(again.statusCode).toBe(200);
    expect(again.json().availableQuantity).toBe(350);
    // Alone it changes nothing, so it is no edit; a new stock without it is refused (an API
    // client must say what it replaces, as the form does).
    expect((await patch(p.id, { availableQuantityWas: 350 }, admin)).statusCode).toBe(400);
    const blind = await patch(p.id, { availableQuantity: 400 }, admin);
    expect(blind.statusCode).toBe(400);
    expect(blind.json()).toMatchObject({
      fields: { availableQuantityWas: productFieldMessages.stockWasRequired },
    });
    expect((await getProduct(p.id)).json().availableQuantity).toBe(350);
  });

  test("changes price, minimum order, warranty, description and image together", async () => {
    const p = await insertProduct(t.database.db);
    const change = {
      price: 12.5,
      minimumOrder: 5,
      warranty: 36,
      shortDescription: "Now with a longer warranty",
      img: "https://cdn.example.com/new.png",
    };
    const res = await patch(p.id, change, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(change);
    expect(await rowOf(p.id)).toMatchObject({ priceCents: 1250, warrantyMonths: 36 });
  });

  test("minimum order is checked against the merged product", async () => {
    const p = await insertProduct(t.database.db, { availableQuantity: 10, minimumOrder: 2 });
    for (const change of [
      { minimumOrder: 11 },
      { availableQuantity: 1, availableQuantityWas: 10 },
    ]) {
      const res = await patch(p.id, change, admin);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: "validation",
        fields: { minimumOrder: "Minimum order cannot exceed the available quantity" },
      });
    }
    const both = await patch(
      p.id,
      { minimumOrder: 20, availableQuantity: 5, availableQuantityWas: 10 },
      admin,
    );
    expect(both.json().fields).toEqual({
      minimumOrder: "Minimum order cannot exceed the available quantity",
    });
    expect(await rowOf(p.id)).toMatchObject({ availableQuantity: 10, minimumOrder: 2 });
    expect((await patch(p.id, { minimumOrder: 10 }, admin)).statusCode).toBe(200);
  });

  test("orders may leave stock below the minimum; a price edit still goes through", async () => {
    const p = await insertProduct(t.database.db, { availableQuantity: 3, minimumOrder: 5 });
    const res = await patch(p.id, { price: 20 }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ price: 20, availableQuantity: 3, minimumOrder: 5 });
  });

  test("the same field rules as adding; nothing to change, unknown keys and ids refused", async () => {
    const p = await insertProduct(t.database.db);
    const bad = await patch(p.id, { price: 1.234, warranty: -1, name: "" }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      price: "Use at most 2 decimals",
      warranty: "Must be 0 or more",
      name: "Name is Required",
    });
    const empty = await patch(p.id, {}, admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain("Change at least one field");
    expect((await patch(p.id, { email: "x@example.com" }, admin)).statusCode).toBe(400);
    expect((await patch(p.id, { creatorEmail: "x@example.com" }, admin)).statusCode).toBe(400);
    const missing = await patch(randomUUID(), { price: 1 }, admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "not_found", message: "Product not found" });
    expect((await patch("not-an-id", { price: 1 }, admin)).statusCode).toBe(400);
  });
});

describe("DELETE /api/products/{id}", () => {
  const place = (productId: string, who: TestAccount, orderQty = 2) =>
    placeTestOrder(t.app, who, productId, orderQty);

  async function pay(orderId: string, who: TestAccount) {
    const { paid } = await payWithTestCard(t.app, who, orderId);
    expect(paid.json()).toMatchObject({ paid: true });
  }

  test("refused with 409 while an unpaid order exists; allowed once it is deleted", async () => {
    const p = await insertProduct(t.database.db, { minimumOrder: 1 });
    const placed = await place(p.id, customer);
    expect(placed.statusCode).toBe(201);

    const refused = await remove(p.id, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: "conflict",
      message: "This product has unpaid orders; wait until they are paid or cancelled",
    });
    expect((await getProduct(p.id)).statusCode).toBe(200);

    const orderId = placed.json().order._id;
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/orders/${orderId}`,
      headers: as(customer),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await remove(p.id, admin)).statusCode).toBe(200);
    expect((await getProduct(p.id)).statusCode).toBe(404);
    expect((await remove(p.id, admin)).statusCode).toBe(404);
  });

  test("allowed once the order is paid; the paid order keeps the product's name and price", async () => {
    const p = await insertProduct(t.database.db, { minimumOrder: 1, priceCents: 4250 });
    const placed = await place(p.id, other, 3);
    const orderId: string = placed.json().order._id;
    expect((await remove(p.id, admin)).statusCode).toBe(409);
    await pay(orderId, other);

    expect((await remove(p.id, admin)).statusCode).toBe(200);
    expect(await rowOf(p.id)).toBeUndefined();
    const order = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}`,
      headers: as(other),
    });
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({
      productId: null,
      productName: p.name,
      productPrice: 42.5,
      orderQty: 3,
      total: 127.5,
      paid: true,
    });
  });

  test("an order placed at the same moment never survives as an unpaid order of a deleted product", async () => {
    for (let i = 0; i < 8; i += 1) {
      const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 50 });
      const [deleted, placed] = await Promise.all([remove(p.id, admin), place(p.id, customer, 1)]);
      // Exactly one of the two wins: the delete (and the order is refused), or the order (409).
      expect([deleted.statusCode, placed.statusCode === 201]).toSatisfy(
        ([status, ordered]) => (status === 200) !== ordered,
      );
      const orphans = await t.database.db
        .select({ id: orders.id, productId: orderItems.productId })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(eq(orders.status, "unpaid"));
      expect(orphans.filter((o) => o.productId === null)).toEqual([]);
      if (placed.statusCode === 201) {
        await t.app.inject({
          method: "DELETE",
          url: `/api/orders/${placed.json().order._id}`,
          headers: as(customer),
        });
      }
    }
  });
});

describe("POST /api/products/images", () => {
  test("a real PNG is stored under a random name and served at its url as image/png", async () => {
    const res = await upload(png, admin);
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const served = await t.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(png.data)).toBe(true);
    expect(await fs.readdir(path.join(dataDir, "uploads"))).toContain(path.basename(url));

    // The uploaded picture can be the product's image.
    const product = await create({ ...caliperProductBody(), img: url }, admin);
    expect(product.statusCode).toBe(201);
    expect(product.json().product.img).toBe(url);
  });

  test("the type comes from the bytes: a GIF named .png is stored as .gif", async () => {
    const res = await upload({ data: tinyGif, filename: "photo.png", type: "image/png" }, admin);
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toMatch(/\.gif$/);
    const served = await t.app.inject({ method: "GET", url: res.json().url });
    expect(served.headers["content-type"]).toBe("image/gif");
  });

  test.each([
    [
      "a JPEG",
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]),
      "jpg",
      "image/jpeg",
    ],
    [
      "a WebP",
      Buffer.concat([Buffer.from("RIFF"), Buffer.from([26, 0, 0, 0]), Buffer.from("WEBPVP8 ")]),
      "webp",
      "image/webp",
    ],
  ])("%s is accepted and served with its type", async (_, data, ext, type) => {
    const res = await upload(
      { data, filename: "upload.bin", type: "application/octet-stream" },
      admin,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toMatch(new RegExp(`\\.${ext}$`));
    const served = await t.app.inject({ method: "GET", url: res.json().url });
    expect(served.headers["content-type"]).toBe(type);
  });

  test.each([
    ["an SVG", { data: svg, filename: "logo.svg", type: "image/svg+xml" }],
    ["an SVG declared as PNG", { data: svg, filename: "logo.png", type: "image/png" }],
    ["a text file", { data: Buffer.from("hello"), filename: "notes.txt", type: "text/plain" }],
    ["an empty file", { data: Buffer.alloc(0), filename: "empty.png", type: "image/png" }],
  ])("%s is refused with 415", async (_, file) => {
    const before = await fs.readdir(path.join(dataDir, "uploads"));
    const res = await upload(file, admin);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: "unsupported_image",
      message: "Upload a PNG, JPEG, WebP or GIF image",
    });
    expect(await fs.readdir(path.join(dataDir, "uploads"))).toEqual(before);
  });

  test("a file over 2 MiB is refused with 413 and nothing is stored", async () => {
    const before = await fs.readdir(path.join(dataDir, "uploads"));
    const big = Buffer.concat([png.data, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload({ data: big, filename: "huge.png", type: "image/png" }, admin);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: "too_large",
      message: "The image must be 2 MiB or smaller",
    });
    expect(await fs.readdir(path.join(dataDir, "uploads"))).toEqual(before);
  });

  test("no multipart body, or no `image` field: a 4xx that says what to send", async () => {
    const json = await t.app.inject({
      method: "POST",
      url: "/api/products/images",
      headers: as(admin),
      payload: { url: "https://example.com/a.png" },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toContain("multipart/form-data");
    const wrongField = await upload({ ...png, field: "file" }, admin);
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toMatchObject({ fields: { image: "Choose an image file" } });
  });

  test("only the image upload takes multipart bodies: another catalog route answers 415", async () => {
    const body = multipart(png);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/products",
      headers: { ...body.headers, ...as(admin) },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ message: "Unsupported Media Type" });
  });
});

test("the OpenAPI document lists the admin product routes", async () => {
  const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  expect(Object.keys(doc.paths["/api/products/{id}"])).toEqual(
    expect.arrayContaining(["get", "patch", "delete"]),
  );
  expect(Object.keys(doc.paths["/api/products/images"])).toEqual(["post"]);
  expect(Object.keys(doc.paths["/api/products/images"].post.responses).sort()).toEqual([
    "201",
    "400",
    "401",
    "403",
    "413",
    "415",
  ]);
});

describe("shipping weight (issue 48, item 6)", () => {
  test("a product added without a weight weighs 0 g; the admin sets and changes it", async () => {
    const created = await create(caliperProductBody(), admin);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().product._id;
    expect(created.json().product.weightGrams).toBe(0);
    const edited = await patch(id, { weightGrams: 1250 }, admin);
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await rowOf(id))!.weightGrams).toBe(1250);
    expect((await getProduct(id)).json().weightGrams).toBe(1250);
    // Other edits leave it as it is.
    await patch(id, { warranty: 36 }, admin);
    expect((await rowOf(id))!.weightGrams).toBe(1250);

    const heavy = await create({ ...caliperProductBody(), weightGrams: 4200 }, admin);
    expect(heavy.json().product.weightGrams).toBe(4200);
  });

  test.each([
    [-1, "Must be 0 or more"],
    [1.5, "Enter a whole number"],
    [1_000_001, "Must be 1,000,000 g or less"],
  ])("a weight of %s is refused: %s", async (weightGrams, message) => {
    const res = await create({ ...caliperProductBody(), weightGrams }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ weightGrams: message });
  });
});

describe("dimensions (issue 48, item 6)", () => {
  const together = productFieldMessages.dimensionsTogether;
  const sizeOf = async (id: string) => {
    const row = (await rowOf(id))!;
    return [row.lengthMm, row.widthMm, row.heightMm];
  };

  test("added with length, width and height, they are stored and read back by admin and public", async () => {
    const created = await create(
      { ...caliperProductBody(), weightGrams: 1200, lengthMm: 300, widthMm: 200, heightMm: 100 },
      admin,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().product._id;
    expect(created.json().product).toMatchObject({ lengthMm: 300, widthMm: 200, heightMm: 100 });
    expect(await sizeOf(id)).toEqual([300, 200, 100]);
    expect((await getProduct(id)).json()).toMatchObject({
      weightGrams: 1200,
      lengthMm: 300,
      widthMm: 200,
      heightMm: 100,
    });

    // An edit sends all three; other edits leave them as they are.
    const edited = await patch(id, { lengthMm: 310, widthMm: 200, heightMm: 100 }, admin);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ lengthMm: 310, widthMm: 200, heightMm: 100 });
    await patch(id, { warranty: 36 }, admin);
    expect(await sizeOf(id)).toEqual([310, 200, 100]);

    // All three null remove them.
    const removed = await patch(id, { lengthMm: null, widthMm: null, heightMm: null }, admin);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await sizeOf(id)).toEqual([null, null, null]);
    expect((await getProduct(id)).json()).toMatchObject({
      lengthMm: null,
      widthMm: null,
      heightMm: null,
    });
  });

  test("a product added without them, or with empty (null) sides, has none", async () => {
    for (const sides of [
      {},
      { lengthMm: null, widthMm: null, heightMm: null },
      { lengthMm: null },
    ]) {
      const created = await create({ ...caliperProductBody(), ...sides }, admin);
      expect(created.statusCode, created.body).toBe(201);
      expect(await sizeOf(created.json().product._id)).toEqual([null, null, null]);
    }
  });

  test.each([
    [{ lengthMm: 300 }, { widthMm: together }],
    [{ lengthMm: 300, widthMm: 200 }, { heightMm: together }],
    [{ widthMm: 200, heightMm: 100, lengthMm: null }, { lengthMm: together }],
  ])("adding with only some sides (%o) is refused 400, nothing stored", async (sides, fields) => {
    const input = caliperProductBody();
    const res = await create({ ...input, ...sides }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "validation", fields });
    const stored = await t.database.db
      .select()
      .from(products)
      .where(eq(products.partNumber, input.partNumber.toUpperCase()));
    expect(stored).toEqual([]);
    expect(together).toBe("Give the length, width and height together, or none");
  });

  test.each([
    [0, productFieldMessages.dimensionAtLeastOne],
    [-5, productFieldMessages.dimensionAtLeastOne],
    [12.5, "Enter a whole number"],
    [10_001, productFieldMessages.dimensionAtMost],
  ])("a side of %s is refused: %s", async (heightMm, message) => {
    const res = await create(
      { ...caliperProductBody(), lengthMm: 300, widthMm: 200, heightMm },
      admin,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ heightMm: message });
    expect(productFieldMessages.dimensionAtLeastOne).toBe("Must be 1 mm or more");
    expect(productFieldMessages.dimensionAtMost).toBe("Must be 10,000 mm or less");
  });

  test("an edit of some sides only is refused 400, and nothing changes", async () => {
    const created = await create(
      { ...caliperProductBody(), lengthMm: 300, widthMm: 200, heightMm: 100 },
      admin,
    );
    const id = created.json().product._id;
    for (const [sides, fields] of [
      [{ heightMm: 120 }, { lengthMm: together }],
      // Alone, a null would keep the other two: refused beside the first side left out.
      [{ lengthMm: null }, { widthMm: together }],
      [{ lengthMm: 300, widthMm: 200, heightMm: null }, { heightMm: together }],
      [{ warranty: 36, widthMm: null, heightMm: null }, { lengthMm: together }],
    ] as const) {
      const res = await patch(id, sides, admin);
      expect(res.statusCode, JSON.stringify(sides)).toBe(400);
      expect(res.json().fields).toEqual(fields);
    }
    expect(await sizeOf(id)).toEqual([300, 200, 100]);
    expect((await rowOf(id))!.warrantyMonths).toBe(24);
  });
});
