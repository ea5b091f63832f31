import net, { type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface TestSmtp {
  url: string;
  /** Message-ID of every message accepted, in order (a repeat shows up twice). */
  accepted: string[];
  /** Every RCPT TO address the server was asked for. */
  recipients: string[];
  stop(): Promise<void>;
}

/**
 * An SMTP server that answers the end of each message after `delayMs` (a slow server: the
 * client waits for its 250), and refuses the addresses in `refuse` with 550 5.1.1.
 */
export async function startTestSmtp({ delayMs = 0, refuse = [] as string[] }): Promise<TestSmtp> {
  const accepted: string[] = [];
  const recipients: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      recipients.push(address.address);
      if (refuse.includes(address.address)) {
        const err = Object.assign(new Error(`5.1.1 <${address.address}>: no such user`), {
          responseCode: 550,
        });
        return callback(err);
      }
      callback();
    },
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        const id = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? "(none)";
        setTimeout(() => {
          accepted.push(id);
          callback();
        }, delayMs);
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    recipients,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A server on `port` that accepts connections and never greets (an SMTP server not answering: a
 * sender waits up to its greeting timeout); `held` are its open connections, and `goDown()`
 * closes them and the port, as a server that went down.
 */
export async function startSilentSmtp(port: number) {
  const held = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    held.add(socket);
    socket.on("close", () => held.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(port, "127.0.0.1", resolve));
  return {
    held,
    async goDown() {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    },
  };
}
