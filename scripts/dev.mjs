// Development: the API server (restarting on change) on API_PORT and Vite's dev server on PORT,
// which proxies /api to it. The API's JSON log lines are shown readably by pino-pretty.
import { spawn } from "node:child_process";

const port = process.env.PORT ?? "3000";
const apiPort = process.env.API_PORT ?? "3001";
const api = spawn("npx", ["tsx", "watch", "src/server/main.ts"], {
  stdio: ["inherit", "pipe", "inherit"],
  // People (and their cookies and Origin headers) reach the API through Vite's port: that is
  // the store's public address, or Better Auth refuses every sign-in as cross-site (403).
  env: {
    ...process.env,
    PORT: apiPort,
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
  },
});
const pretty = spawn(
  process.execPath,
  [
    "node_modules/pino-pretty/bin.js",
    "--translateTime",
    "SYS:HH:MM:ss",
    "--ignore",
    "pid,hostname",
  ],
  { stdio: ["pipe", "inherit", "inherit"] },
);
api.stdout.pipe(pretty.stdin);
pretty.stdin.on("error", () => {}); // pino-pretty stopped first, on the way out
const children = [
  api,
  spawn("npx", ["vite", "--port", port, "--strictPort"], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => [...children, pretty].forEach((c) => c.kill("SIGTERM"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children) c.on("exit", stop);
