import net from "node:net";

/** Asks the OS for a free TCP port on loopback (free now: see `reserveFreePort` to hold it). */
export async function getFreePort(): Promise<number> {
  const reserved = await reserveFreePort();
  await reserved.release();
  return reserved.port;
}

/**
 * A free TCP port on loopback, held (listened on) until `release()`: nothing else on the machine
 * can take it in between, as it could a port from `getFreePort` in the seconds before the caller
 * binds it (other servers starting at once, each asking the OS for a port).
 */
export function reserveFreePort(): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (!address || typeof address !== "object") {
        server.close();
        reject(new Error("could not read the free port"));
        return;
      }
      resolve({
        port: address.port,
        release: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
