import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "../../src/server/storage/s3";

// The SDK's notice that its releases after January 2027 want Node.js 22 (the tests run on 20 too).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

export const TEST_BUCKET = "store-files";

/**
 * A real S3-compatible server for the tests (s3rver: S3's REST API over files in a temporary
 * folder), on a free port of 127.0.0.1, with the bucket made: no test reaches the network.
 * `settings(timeoutMs)` are the S3 driver's settings pointing at it.
 */
export async function startS3Server() {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
  });
  const { port } = (await server.run()) as net.AddressInfo;
  // Kept-alive connections of the SDK's clients would hold the server's close forever.
  const sockets = new Set<net.Socket>();
  (server as unknown as { httpServer: net.Server }).httpServer.on("connection", (s: net.Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  return {
    port,
    directory,
    settings: (timeoutMs = 5000) => bucketAt(port, timeoutMs),
    async close() {
      for (const s of sockets) s.destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/** The test bucket on an S3 server at `port` on this machine, with s3rver's own test credentials. */
const bucketAt = (port: number, timeoutMs: number): S3Settings => ({
  endpoint: `http://127.0.0.1:${port}`,
  bucket: TEST_BUCKET,
  region: "us-east-1",
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  forcePathStyle: true,
  timeoutMs,
});

/**
 * A bucket that is away: `down`, a port nothing listens on (connections refused); `slow`, a server
 * that accepts connections and never answers.
 */
export async function startBrokenS3(kind: "down" | "slow") {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
    s.resume();
  });
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
  const { port } = server.address() as net.AddressInfo;
  if (kind === "down") await new Promise((res) => server.close(res));
  return {
    settings: (timeoutMs: number) => bucketAt(port, timeoutMs),
    /** Connections the slow server has been sent (it answers none). */
    connections: () => sockets.size,
    async close() {
      for (const s of sockets) s.destroy();
      if (kind === "slow") await new Promise((res) => server.close(res));
    },
  };
}
