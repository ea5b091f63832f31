import http from "node:http";
import type { AddressInfo } from "node:net";

/** How the stand-in answers a VAT number. */
export type ViesBehaviour =
  /** 200, valid, with a name, an address and (when a requester is named) a consultation number. */
  | "valid"
  /** 200, not valid. */
  | "invalid"
  /** 500 with `errorWrappers: [{ error: "MS_UNAVAILABLE" }]`, as VIES when a state's register is away. */
  | "unavailable"
  /** 200 with `userError: "MS_MAX_CONCURRENT_REQ"`: too busy to answer. */
  | "busy"
  /** Never answers (until the stand-in closes): the client's timeout must end the call. */
  | "slow";

export interface ViesCall {
  countryCode: string;
  vatNumber: string;
  requesterMemberStateCode?: string;
  requesterNumber?: string;
}

/**
 * A local stand-in of the Commission's VIES REST API (`POST /check-vat-number`), a real HTTP server
 * on a free port of 127.0.0.1, so tests never reach the network. Numbers answer as `set` says
 * (unknown ones: `valid`); every request is kept in `calls`.
 */
export async function startViesStandIn() {
  const behaviours = new Map<string, ViesBehaviour>();
  const calls: ViesCall[] = [];
  let consultations = 0;
  const server = http.createServer((req, res) => {
    // Another process (an end-to-end test) sets a number's answer: PUT /stand-in/DE123456789/invalid.
    const control = /^\/stand-in\/([A-Z0-9]+)\/(valid|invalid|unavailable|busy|slow)$/.exec(
      req.url ?? "",
    );
    if (req.method === "PUT" && control) {
      behaviours.set(control[1]!, control[2] as ViesBehaviour);
      res.writeHead(204).end();
      req.resume();
      return;
    }
    if (req.method !== "POST" || req.url !== "/check-vat-number") {
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const call = JSON.parse(body) as ViesCall;
      calls.push(call);
      const id = `${call.countryCode}${call.vatNumber}`;
      const behaviour = behaviours.get(id) ?? "valid";
      const json = (status: number, o: object) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(o));
      const common = {
        countryCode: call.countryCode,
        vatNumber: call.vatNumber,
        requestDate: "2026-12-04T10:15:00.000Z",
      };
      switch (behaviour) {
        case "slow":
          return; // answered by nobody: the socket is closed with the stand-in
        case "unavailable":
          return json(500, {
            actionSucceed: false,
            errorWrappers: [{ error: "MS_UNAVAILABLE", message: "The member state is away" }],
          });
        case "busy":
          return json(200, { ...common, valid: false, userError: "MS_MAX_CONCURRENT_REQ" });
        case "invalid":
          return json(200, {
            ...common,
            valid: false,
            name: "---",
            address: "---",
            requestIdentifier: call.requesterNumber ? `WAPIAAAAX${++consultations}` : "",
          });
        case "valid":
          return json(200, {
            ...common,
            valid: true,
            name: `TRADER ${id}`,
            address: "HAUPTSTRASSE 1\n10115 BERLIN",
            requestIdentifier: call.requesterNumber ? `WAPIAAAAX${++consultations}` : "",
          });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    /** How `vatId` (with its prefix, as VIES takes it: EL… for Greece) is answered from now on. */
    set(vatId: string, behaviour: ViesBehaviour) {
      behaviours.set(vatId, behaviour);
    },
    /** The calls about one number. */
    callsFor: (vatId: string) => calls.filter((c) => `${c.countryCode}${c.vatNumber}` === vatId),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ViesStandIn = Awaited<ReturnType<typeof startViesStandIn>>;
