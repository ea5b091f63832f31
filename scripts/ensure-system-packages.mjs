// Makes sure the Debian packages the tests drive are installed: Chromium for the end-to-end tests,
// PgBouncer and nginx for the system tests that put real infrastructure in front of the store,
// PostgreSQL 15 (server and pg_basebackup) for the read replica's (tests/system/read-replica.test.ts).
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const wanted = [
  { pkg: "chromium", path: chromium },
  { pkg: "pgbouncer", path: "/usr/sbin/pgbouncer" },
  { pkg: "nginx", path: "/usr/sbin/nginx" },
  { pkg: "postgresql-15", path: "/usr/lib/postgresql/15/bin/postgres" },
  { pkg: "postgresql-client-15", path: "/usr/lib/postgresql/15/bin/pg_basebackup" },
];
const missing = wanted.filter((w) => !existsSync(w.path));
if (missing.length === 0) process.exit(0);

const names = missing.map((m) => m.pkg).join(" ");
const isRoot = process.getuid?.() === 0;
if (!isRoot || !existsSync("/usr/bin/apt-get")) {
  console.error(
    `Missing: ${names}.\n` +
      `Install Debian's packages as root:  apt-get update && apt-get install -y ${names}\n` +
      "(CHROMIUM_PATH may point at another Chromium or Chrome executable).",
  );
  process.exit(1);
}
console.log(`Installing Debian's ${names} (apt-get)…`);
execSync(`apt-get update && apt-get install -y --no-install-recommends ${names}`, {
  stdio: "inherit",
  env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
});
