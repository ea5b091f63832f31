// ACES import at scale (issue 50): a file of 100,000 applications uploaded, previewed and imported
// through the API of a production store, with the server's resident memory sampled throughout.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  residentMiB,
  round,
  seedProducts,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";

const APPLICATIONS = Number(process.env.BENCH_ACES_APPLICATIONS ?? 100_000);
const PARTS = 20_000;
/** Base vehicles with VCdb ids 1,000,001…, over 40 models and 25 years. */
const VEHICLES = 1_000;
const ADMIN = "aces-bench-admin@example.com";

export interface ImportsResult {
  applications: number;
  fileMiB: number;
  uploadAndPreviewSeconds: number;
  importSeconds: number;
  reimportSeconds: number;
  inserted: number;
  reimportInserted: number;
  reimportDeleted: number;
  /** The server's resident memory before the upload, and its peak while uploading and previewing, then importing. */
  idleResidentMiB: number;
  peakPreviewResidentMiB: number;
  peakImportResidentMiB: number;
  targets: string;
}

/**
 * An ACES 4.2 file: application i is part BN-(i % PARTS + 1) on base vehicle 1,000,001 +
 * (i + i / PARTS) % VEHICLES, so that every application is a fitment row of its own.
 */
async function writeAcesFile(file: string): Promise<void> {
  const handle = await fs.open(file, "w");
  try {
    await handle.write(
      '<?xml version="1.0" encoding="UTF-8"?>\n<ACES version="4.2">\n  <Header>\n' +
        "    <BrandAAIAID>BNCH</BrandAAIAID>\n    <SubmissionType>FULL</SubmissionType>\n  </Header>\n",
    );
    for (let start = 0; start < APPLICATIONS; start += 5000) {
      let chunk = "";
      for (let i = start; i < Math.min(APPLICATIONS, start + 5000); i++) {
        chunk +=
          `  <App action="A" id="${i + 1}">\n    <BaseVehicle id="${1_000_001 + ((i + Math.floor(i / PARTS)) % VEHICLES)}"/>\n` +
          `    <Note>Bench application ${i + 1}</Note>\n    <Qty>1</Qty>\n` +
          `    <Part>BN-${(i % PARTS) + 1}</Part>\n  </App>\n`;
      }
      await handle.write(chunk);
    }
    await handle.write("</ACES>\n");
  } finally {
    await handle.close();
  }
}

async function seedVehicles(url: string): Promise<void> {
  await withClient(url, async (c) => {
    await c.query(`insert into vehicle_makes (name) values ('Bench make')`);
    await c.query(`insert into vehicle_models (make_id, name)
      select (select id from vehicle_makes where name = 'Bench make'), 'Model ' || k
      from generate_series(1, 40) k`);
    await c.query(`insert into base_vehicles (model_id, year, vcdb_base_vehicle_id)
      select m.id, 2000 + (k / 40), 1000001 + k
      from generate_series(0, ${VEHICLES - 1}) k
      join vehicle_models m on m.name = 'Model ' || (1 + k % 40)`);
  });
}

/** An admin's session cookie (production: the address is verified, then signs in again). */
async function adminCookie(serverUrl: string, databaseUrl: string): Promise<string> {
  const post = (url: string, body: object) =>
    fetch(`${serverUrl}/api/auth/${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: serverUrl },
      body: JSON.stringify(body),
    });
  const credentials = { email: ADMIN, password: "bench-password-for-imports" };
  const signUp = await post("sign-up/email", { ...credentials, name: "Bench admin" });
  if (signUp.status !== 200) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  await withClient(databaseUrl, (c) =>
    c.query(`update "user" set email_verified = true where email = $1`, [ADMIN]),
  );
  const signIn = await post("sign-in/email", credentials);
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status}`);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(";", 1)[0])
    .join("; ");
}

interface ImportRecord {
  id: string;
  status: string;
  result: { inserted: number; deleted: number } | null;
  failure: string | null;
}

export async function runImportsBench(): Promise<ImportsResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "aces-bench-"));
  const file = path.join(dir, "bench.xml");
  await writeAcesFile(file);
  const fileMiB = round((await fs.stat(file)).size / 1024 / 1024, 1);
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("aces_import");
    const store = await startStore(url, {
      SEED_DEMO_DATA: "false",
      ADMIN_EMAILS: ADMIN,
      ADMIN_2FA_REQUIRED: "false",
    });
    const peaks = { preview: 0, import: 0 };
    let phase: keyof typeof peaks | undefined;
    const sampler = setInterval(() => {
      if (phase) peaks[phase] = Math.max(peaks[phase], residentMiB(store.process.pid!));
    }, 100);
    try {
      await seedProducts(url, PARTS);
      await seedVehicles(url);
      const cookie = await adminCookie(store.url, url);
      const headers = { cookie, origin: store.url };
      const idle = residentMiB(store.process.pid!);
      const once = async () => {
        phase = "preview";
        const started = performance.now();
        const form = new FormData();
        form.append("file", new Blob([await fs.readFile(file)]), "bench.xml");
        const res = await fetch(`${store.url}/api/imports/aces`, {
          method: "POST",
          headers,
          body: form,
        });
        if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
        const { id } = (await res.json()) as ImportRecord;
        const previewed = performance.now();
        phase = "import";
        const start = await fetch(`${store.url}/api/imports/${id}/start`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: "{}",
        });
        if (start.status !== 202) throw new Error(`start: ${start.status} ${await start.text()}`);
        let record: ImportRecord;
        do {
          await new Promise((resolve) => setTimeout(resolve, 250));
          record = (await (
            await fetch(`${store.url}/api/imports/${id}`, { headers })
          ).json()) as ImportRecord;
        } while (record.status === "queued" || record.status === "running");
        phase = undefined;
        if (record.status !== "done") throw new Error(`import ${record.status}: ${record.failure}`);
        return {
          previewSeconds: round((previewed - started) / 1000),
          importSeconds: round((performance.now() - previewed) / 1000),
          result: record.result!,
        };
      };
      const first = await once();
      const again = await once();
      return {
        applications: APPLICATIONS,
        fileMiB,
        uploadAndPreviewSeconds: first.previewSeconds,
        importSeconds: first.importSeconds,
        reimportSeconds: again.importSeconds,
        inserted: first.result.inserted,
        reimportInserted: again.result.inserted,
        reimportDeleted: again.result.deleted,
        idleResidentMiB: idle,
        peakPreviewResidentMiB: peaks.preview,
        peakImportResidentMiB: peaks.import,
        targets: "100,000 applications imported in <= 60 s; server resident memory <= 300 MiB",
      };
    } finally {
      clearInterval(sampler);
      await store.stop();
    }
  } finally {
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export function printImports(r: ImportsResult) {
  console.log(
    `ACES import: ${r.applications.toLocaleString("en")} applications (${r.fileMiB} MiB), ${r.inserted.toLocaleString("en")} fitment rows written`,
  );
  console.log(
    `  upload + preview ${r.uploadAndPreviewSeconds} s; import ${r.importSeconds} s; the same file again ${r.reimportSeconds} s (${r.reimportInserted} added, ${r.reimportDeleted} removed)`,
  );
  console.log(
    `  server resident memory: ${r.idleResidentMiB} MiB before; peak ${r.peakPreviewResidentMiB} MiB uploading and previewing, ${r.peakImportResidentMiB} MiB importing`,
  );
  console.log(`  targets: ${r.targets}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printImports(await runImportsBench());
}
