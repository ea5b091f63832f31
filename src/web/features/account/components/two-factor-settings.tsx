import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

interface Enabling {
  totpURI: string;
  backupCodes: string[];
}

/**
 * Two-factor authentication (TOTP): the password first, then the secret (as an otpauth:// link
 * and as text for typing into an authenticator app) and the backup codes, then a code from the
 * app turns it on. Required for admin actions in production (ADMIN_2FA_REQUIRED).
 */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [enabling, setEnabling] = useState<Enabling>();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const secret = enabling ? (new URL(enabling.totpURI).searchParams.get("secret") ?? "") : "";
  return (
    <section aria-labelledby="two-factor-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 id="two-factor-title" className="card-title">
          Two-factor authentication
        </h2>
        {(enabled || done) && !enabling ? (
          <p>Two-factor authentication is on. Sign-in asks for a code from your app.</p>
        ) : done && enabling ? (
          <>
            <p role="status">Two-factor authentication is on.</p>
            <p>Keep these backup codes somewhere safe; each one works once instead of a code:</p>
            <ul aria-label="Backup codes" className="grid grid-cols-2 gap-1 font-mono">
              {enabling.backupCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <button type="button" className="btn" onClick={() => setEnabling(undefined)}>
              I saved them
            </button>
          </>
        ) : enabling ? (
          <form
            className="flex flex-col gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                await apiSend("POST", "/auth/two-factor/verify-totp", { code: code.trim() });
                setDone(true);
                await queryClient.invalidateQueries({ queryKey: queryKeys.session });
              });
            }}
          >
            <p>
              Add this account to your authenticator app: open{" "}
              <a className="link" href={enabling.totpURI}>
                the setup link
              </a>{" "}
              on your phone, or type the secret key:
            </p>
            <code data-testid="totp-secret" className="break-all rounded bg-base-200 p-2">
              {secret}
            </code>
            <label className="flex flex-col gap-1">
              <span>Code from the app</span>
              <input
                className="input input-bordered"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
            {error && (
              <p role="alert" className="text-error">
                {error}
              </p>
            )}
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Verify and turn on
            </button>
          </form>
        ) : (
          <form
            className="flex flex-col gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                setEnabling(
                  await apiSend<Enabling>("POST", "/auth/two-factor/enable", { password }),
                );
                setPassword("");
              });
            }}
          >
            <p>Sign-in will also ask for a code from an authenticator app.</p>
            <label className="flex flex-col gap-1">
              <span>Password</span>
              <input
                className="input input-bordered"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            {error && (
              <p role="alert" className="text-error">
                {error}
              </p>
            )}
            <button type="submit" className="btn" disabled={busy || !password}>
              Turn on two-factor authentication
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
