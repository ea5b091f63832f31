import { BlockList, isIP } from "node:net";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { webhookMessages as say } from "../../contract/webhooks";

/**
 * Where the store may not send webhooks unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES says so: private,
 * loopback, link-local, shared (carrier-grade NAT), unspecified, multicast and reserved addresses,
 * IPv4 and IPv6 (an IPv4 address mapped into IPv6 is judged as the IPv4 one).
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  blocked.addSubnet(net, bits, "ipv6");
}

/** An IPv4 address inside an IPv6 one (`::ffff:127.0.0.1`, `::ffff:7f00:1`), or undefined. */
function mappedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return undefined;
}

/** Whether an IP address is private, loopback, link-local or otherwise not on the internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const v4 = mappedIpv4(address);
    if (v4 !== undefined) return blocked.check(v4, "ipv4");
    return blocked.check(address, "ipv6");
  }
  // Not an address at all: refuse rather than guess.
  return true;
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: string): string {
  const host = new URL(url).hostname;
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

const LOOKUP_TIMEOUT_MS = 5_000;

/** Every address a host name resolves to (A and AAAA), within 5 seconds. */
export function resolveAll(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(say.unresolved(host))),
      LOOKUP_TIMEOUT_MS,
    ).unref();
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err || addresses.length === 0) reject(new Error(say.unresolved(host)));
      else resolve(addresses);
    });
  });
}

/** The addresses of the host, refused (an Error with the admin's words) when one is private. */
export async function checkedAddresses(
  host: string,
  allowPrivate: boolean,
): Promise<LookupAddress[]> {
  const addresses = await resolveAll(host);
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new Error(say.privateAddress(host));
  }
  return addresses;
}

/**
 * A `lookup` for node:http that resolves the host once, refuses it when any of its addresses is
 * private (unless allowed) and connects to the address it checked: a name that resolves to a
 * public address for the check and a private one for the connection gets nowhere.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (
      err: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    checkedAddresses(hostname, allowPrivate).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(err, "", 0),
    );
  };
}
