import net from "node:net";
import { expect, test } from "vitest";
import { reserveFreePort } from "./free-port";

const bind = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

test("a reserved port cannot be taken until it is released, then it can", async () => {
  const reserved = await reserveFreePort();
  await expect(bind(reserved.port)).rejects.toMatchObject({ code: "EADDRINUSE" });
  await reserved.release();
  const server = await bind(reserved.port);
  await new Promise<void>((done) => server.close(() => done()));
});
