// Bulk stock sync (issue 51, docs/bulk-sync.md): one `PUT /api/bulk/stock` of 100,000 CSV lines
// with an API key, against a production store of 100,000 parts, end to end (the client sends the
// body and reads the whole answer), with the server's resident memory sampled throughout; then the
// same file again (every line unchanged).
import {
  residentMiB,
  round,
  seedProducts,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";

const PARTS = Number(process.env.BENCH_BULK_PARTS ?? 100_000);
const ADMIN = "bulk-bench-admin@example.com";

export interface BulkSyncResult {
  parts: number;
  bodyMiB: number;
  /** The first PUT: every line a new stock. */
  seconds: number;
  updated: number;
  /** The same file again: nothing to write. */
  againSeconds: number;
  unchanged: number;
  idleResidentMiB: number;
  peakResidentMiB: number;
  targets: string;
}

/**
 * An admin's session cookie (production: the address is verified, then signs in again); `email`
 * must be in the store's ADMIN_EMAILS.
 */
export async function adminCookie(
  serverUrl: string,
  databaseUrl: string,
  email = ADMIN,
): Promise<string> {
  const post = (url: string, body: object) =>
    fetch(`${serverUrl}/api/auth/${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: serverUrl },
      body: JSON.stringify(body),
    });
  const credentials = { email, password: "bench-password-for-bulk-sync" };
  const signUp = await post("sign-up/email", { ...credentials, name: "Bench admin" });
  if (signUp.status !== 200) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  await withClient(databaseUrl, (c) =>
    c.query(`update "user" set email_verified = true where email = $1`, [email]),
  );
  const signIn = await post("sign-in/email", credentials);
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status}`);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(";", 1)[0])
    .join("; ");
}

interface Answer {
  applied: boolean;
  counts: { lines: number; updated: number; unchanged: number; errors: number };
}

export async function runBulkSyncBench(): Promise<BulkSyncResult> {
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("bulk_sync");
    const store = await startStore(url, {
      SEED_DEMO_DATA: "false",
      ADMIN_EMAILS: ADMIN,
      ADMIN_2FA_REQUIRED: "false",
    });
    let sampling = false;
    let peak = 0;
    const sampler = setInterval(() => {
      if (sampling) peak = Math.max(peak, residentMiB(store.process.pid!));
    }, 100);
    try {
      // Parts BN-1 … BN-100000, 1,000 in stock each (one insert … select: seconds).
      await seedProducts(url, PARTS);
      const cookie = await adminCookie(store.url, url);
      const made = await fetch(`${store.url}/api/api-keys`, {
        method: "POST",
        headers: { cookie, origin: store.url, "content-type": "application/json" },
        body: JSON.stringify({ name: "Bench ERP", scopes: ["inventory:write"] }),
      });
      if (made.status !== 201) throw new Error(`api key: ${made.status} ${await made.text()}`);
      const { key } = (await made.json()) as { key: string };
      let body = "partNumber,stock\n";
      for (let i = 1; i <= PARTS; i++) body += `BN-${i},${(i * 7919) % 997}\n`;
      const idle = residentMiB(store.process.pid!);
      const put = async () => {
        const started = performance.now();
        const res = await fetch(`${store.url}/api/bulk/stock`, {
          method: "PUT",
          headers: { authorization: `Bearer ${key}`, "content-type": "text/csv" },
          body,
        });
        const answer = (await res.json()) as Answer;
        const seconds = round((performance.now() - started) / 1000);
        if (res.status !== 200 || !answer.applied) {
          throw new Error(`bulk stock: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
        }
        return { seconds, counts: answer.counts };
      };
      sampling = true;
      const first = await put();
      const again = await put();
      sampling = false;
      return {
        parts: PARTS,
        bodyMiB: round(Buffer.byteLength(body) / 1024 / 1024, 1),
        seconds: first.seconds,
        updated: first.counts.updated,
        againSeconds: again.seconds,
        unchanged: again.counts.unchanged,
        idleResidentMiB: idle,
        peakResidentMiB: peak,
        targets: "100,000 stock updates in <= 10 s end to end",
      };
    } finally {
      clearInterval(sampler);
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

export function printBulkSync(r: BulkSyncResult) {
  console.log(
    `Bulk stock sync: one PUT /api/bulk/stock of ${r.parts.toLocaleString("en")} CSV lines (${r.bodyMiB} MiB) with an API key`,
  );
  console.log(
    `  ${r.seconds} s end to end (${r.updated.toLocaleString("en")} updated); the same file again ${r.againSeconds} s (${r.unchanged.toLocaleString("en")} unchanged)`,
  );
  console.log(
    `  server resident memory: ${r.idleResidentMiB} MiB before, peak ${r.peakResidentMiB} MiB during the two`,
  );
  console.log(`  targets: ${r.targets}`);
}
