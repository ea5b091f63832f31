import Fastify from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { expect, test } from "vitest";
import { onEachWrite } from "./each-write";

// A read (GET, and the HEAD Fastify answers for every GET) clears nothing; a write does, once it
// succeeded. Attribute and vehicle admin routes once counted a HEAD as a write.
test("only a successful write is a change", async () => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  const changes: string[] = [];
  await app.register(async (scope) => {
    onEachWrite(scope, () => changes.push("changed"));
    scope.get("/thing", async () => ({ ok: true }));
    scope.post("/thing", async () => ({ ok: true }));
    scope.delete("/thing", async (_req, reply) => reply.code(404).send({ message: "Not found" }));
  });
  const call = async (method: "GET" | "HEAD" | "POST" | "DELETE") => {
    const res = await app.inject({ method, url: "/thing" });
    return [res.statusCode, changes.length];
  };
  expect(await call("GET")).toEqual([200, 0]);
  expect(await call("HEAD")).toEqual([200, 0]);
  expect(await call("DELETE")).toEqual([404, 0]);
  expect(await call("POST")).toEqual([200, 1]);
  await app.close();
});
