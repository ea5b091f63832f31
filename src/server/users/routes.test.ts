import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { sendMalformedJson } from "../../../tests/support/requests";
import { user } from "./tables";
import { createUserService } from "./service";

const { t, call, admin, customer, other } = storeForTests({
  admin: { email: "the-admin@example.com", name: "The Admin" },
  customers: { customer: { name: "Casey Customer" }, other: { name: "Other Customer" } },
});

const get = (url: string, who?: TestAccount) => call(who, "GET", url);
const put = (payload: object, who?: TestAccount) => call(who, "PUT", "/api/user", payload);
const editable = { education: "BSc", address: "1 Main St", phoneNo: "+1 555-0100", linkedIn: "" };

describe("GET /api/user", () => {
  test("anonymous: 401", async () => {
    const res = await get("/api/user");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "unauthorized", message: "Please sign in" });
  });
  test("customer, another customer and admin each get their own profile", async () => {
    for (const who of [customer, other, admin]) {
      const res = await get("/api/user", who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: who.email, name: who.name });
    }
    expect((await get("/api/user", admin)).json().role).toBe("admin");
    expect((await get("/api/user", customer)).json().role).toBe("user");
  });
});

describe("PUT /api/user", () => {
  test("anonymous: 401", async () => {
    expect((await put(editable)).statusCode).toBe(401);
  });
  test("a customer updates their own profile fields, and only their own", async () => {
    const res = await put(editable, customer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ...editable,
      phoneNo: "+15550100", // stored without its spaces and dashes
      email: customer.email,
      name: customer.name,
    });
    expect((await get("/api/user", other)).json()).toMatchObject({ education: "", address: "" });
  });
  test("name, email and role cannot be changed", async () => {
    for (const extra of [
      { name: "Someone Else" },
      { email: "hijack@example.com" },
      { role: "admin" },
    ]) {
      const res = await put({ ...editable, ...extra }, other);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "validation" });
    }
    expect((await get("/api/user", other)).json()).toMatchObject({
      name: other.name,
      email: other.email,
      role: "user",
    });
  });
  test("bad field values get field messages", async () => {
    const res = await put(
      { ...editable, phoneNo: "call me", linkedIn: "javascript:alert(1)" },
      other,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      phoneNo: "Enter a phone number: 6 to 15 digits, spaces, dashes or brackets",
      linkedIn: "Use a https://linkedin.com/… address",
    });
  });
  test("malformed JSON is a 400, not a 500", async () => {
    const res = await sendMalformedJson(t.app, customer, "PUT", "/api/user");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});

describe("GET /api/admin/{email}", () => {
  test("anonymous: 401", async () => {
    expect((await get(`/api/admin/${customer.email}`)).statusCode).toBe(401);
  });
  test("a customer may ask about themself only", async () => {
    expect((await get(`/api/admin/${customer.email}`, customer)).json()).toEqual({ admin: false });
    const res = await get(`/api/admin/${other.email}`, customer);
    expect(res.statusCode).toBe(403);
    expect((await get(`/api/admin/${admin.email}`, other)).statusCode).toBe(403);
  });
  test("an admin may ask about anyone", async () => {
    expect((await get(`/api/admin/${admin.email}`, admin)).json()).toEqual({ admin: true });
    expect((await get(`/api/admin/${customer.email}`, admin)).json()).toEqual({ admin: false });
    expect((await get(`/api/admin/nobody@example.com`, admin)).json()).toEqual({ admin: false });
  });
});

test("makeAdmin (the admin command) promotes an existing account and says when there is none", async () => {
  const users = createUserService(t.database.db);
  const promoted = await signUp(t.app);
  expect(await users.makeAdmin(promoted.email.toUpperCase())).toBe(true);
  const [row] = await t.database.db
    .select({ role: user.role })
    .from(user)
    .where(eq(user.email, promoted.email));
  expect(row?.role).toBe("admin");
  expect(await users.makeAdmin("no-such-person@example.com")).toBe(false);
});
