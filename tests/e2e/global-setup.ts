import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startDemoIdentityProvider } from "../../src/server/auth/demo-identity-provider";
import { getFreePort } from "../../src/server/db/free-port";
import { startServerProcess } from "../support/server-process";
import { startViesStandIn } from "../support/vies-stand-in";

/**
 * Starts an OpenID Connect identity provider and a stand-in of VIES (in this process; tests set a
 * VAT number's answer through E2E_VIES_URL) and the production server (its own
 * process, a fresh embedded database with the demo data, configured to use that provider through
 * OIDC_ISSUER, as a real deployment would).
 */
export default async function globalSetup() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-e2e-"));
  const port = await getFreePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const idp = await startDemoIdentityProvider({
    redirectUris: [`${publicUrl}/api/auth/oauth2/callback/oidc`],
  });
  // VIES, the Commission's register of EU VAT numbers: a local stand-in, never the network.
  const vies = await startViesStandIn();
  const server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_LABEL: "Demo ID",
      // Every browser here signs in from 127.0.0.1; the limit itself is covered by the API tests.
      AUTH_RATE_LIMIT_PER_IP: "10000",
      AUTH_RATE_LIMIT_PER_EMAIL: "10000",
      // The same for test-card payments: every journey pays from 127.0.0.1 (payments.test.ts
      // covers the limit).
      PAYMENT_CONFIRM_LIMIT_PER_IP: "10000",
      // Browsers here sign up fresh (unverified) accounts that order the shared demo parts; the
      // cap on what unverified accounts hold together is covered by the API tests.
      HOLD_NEW_CUSTOMER_SHARE: "1",
      // Two browsers, their test workers and the store share two cores here: the store's event
      // loop runs late for seconds at a time for want of CPU, and a page's request shed for that
      // fails a journey that is not about overload (src/server/overload.test.ts tests the lag).
      EVENT_LOOP_LAG_MAX_MS: "0",
      // The same for how long requests wait to be read (overload.test.ts tests it).
      REQUEST_WAIT_MAX_MS: "0",
      VIES_URL: vies.url,
    },
    [],
    // The build's server, as `npm start` runs it (`npm run test:e2e` builds it with the web app).
    { compiled: true },
  );
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_VIES_URL = vies.url;
  return async () => {
    await server.stop();
    await idp.stop();
    await vies.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}
