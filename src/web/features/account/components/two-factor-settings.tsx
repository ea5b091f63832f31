import { lazy, Suspense, useState, type FormEvent, type InputHTMLAttributes } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

const TotpQrCode = lazy(() => import("./totp-qr-code"));

interface Enabling {
  totpURI: string;
  backupCodes: string[];
}

/**
 * Two-factor authentication (TOTP). Off: the password first, then the secret (a QR code, the
 * otpauth:// link and the key as text) and the backup codes, then a code from the app turns it
 * on. On: with the password and a current code, new backup codes (the old ones stop working) or
 * turning it off. Turning it on or off signs the account out everywhere else.
 * Required for admin actions in production (ADMIN_2FA_REQUIRED).
 */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [enabling, setEnabling] = useState<Enabling>();
  const [verified, setVerified] = useState(false);
  const [newCodes, setNewCodes] = useState<string[]>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  /** A step's form: sending it runs `step` (as `run` does). */
  const runOnSubmit = (step: () => Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    void run(step);
  };
  const refreshSession = () => queryClient.invalidateQueries({ queryKey: queryKeys.session });

  const errorLine = error && (
    <p role="alert" className="text-error">
      {error}
    </p>
  );
  /** A labelled text box of this card, holding `value`. */
  const field = (
    label: string,
    value: string,
    change: (typed: string) => void,
    input: InputHTMLAttributes<HTMLInputElement>,
  ) => (
    <label className="flex flex-col gap-1">
      <span>{label}</span>
      <input
        className="input input-bordered w-full"
        {...input}
        value={value}
        onChange={(e) => change(e.target.value)}
      />
    </label>
  );
  const passwordField = field("Password", password, setPassword, {
    type: "password",
    autoComplete: "current-password",
  });
  /** A code from the authenticator app (`label`: what this step calls it). */
  const codeField = (label: string) =>
    field(label, code, setCode, { inputMode: "numeric", autoComplete: "one-time-code" });
  /**
   * Sends the password and a code to `path` (both cleared once it is done), then `then` with
   * the answer.
   */
  const withPasswordAndCode =
    <T,>(path: string, then: (answer: T) => void | Promise<void>) =>
    () =>
      void run(async () => {
        const answer = await apiSend<T>("POST", path, { password, code: code.trim() });
        setPassword("");
        setCode("");
        await then(answer);
      });
  /** The last step's outcome when there is one, else what the form is about. */
  const noticeOr = (about: string) => (notice ? <p role="status">{notice}</p> : <p>{about}</p>);

  let body;
  if (enabling && verified) {
    body = (
      <>
        <p role="status">Two-factor authentication is on.</p>
        <BackupCodes codes={enabling.backupCodes} onSaved={() => setEnabling(undefined)} />
      </>
    );
  } else if (newCodes) {
    body = (
      <>
        <p role="status">New backup codes are ready; the old ones no longer work.</p>
        <BackupCodes codes={newCodes} onSaved={() => setNewCodes(undefined)} />
      </>
    );
  } else if (enabling) {
    const secret = new URL(enabling.totpURI).searchParams.get("secret") ?? "";
    body = (
      <form
        className="flex flex-col gap-3"
        onSubmit={runOnSubmit(async () => {
          await apiSend("POST", "/auth/two-factor/verify-totp", { code: code.trim() });
          setVerified(true);
          await refreshSession();
        })}
      >
        <p>Scan this code with your authenticator app:</p>
        <Suspense fallback={<div className="h-48 w-48 rounded bg-base-200" aria-hidden="true" />}>
          <TotpQrCode uri={enabling.totpURI} />
        </Suspense>
        <p>
          Or open{" "}
          <a className="link" href={enabling.totpURI}>
            the setup link
          </a>{" "}
          on your phone, or type the secret key:
        </p>
        <code data-testid="totp-secret" className="break-all rounded bg-base-200 p-2">
          {secret}
        </code>
        {codeField("Code from the app")}
        {errorLine}
        <div className="card-actions justify-end">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Verify and turn on
          </button>
        </div>
      </form>
    );
  } else if (enabled) {
    body = (
      <form className="flex flex-col gap-3" onSubmit={(e) => e.preventDefault()}>
        {noticeOr("Two-factor authentication is on. Sign-in asks for a code from your app.")}
        <p className="text-sm">
          Your password and a code from your app are needed for new backup codes or to turn it off.
        </p>
        {passwordField}
        {codeField("Authentication code")}
        {errorLine}
        <div className="card-actions justify-end">
          <button
            type="button"
            className="btn btn-outline"
            disabled={busy || !password || !code}
            onClick={withPasswordAndCode<{ backupCodes: string[] }>(
              "/auth/two-factor/generate-backup-codes",
              (res) => setNewCodes(res.backupCodes),
            )}
          >
            Get new backup codes
          </button>
          <button
            type="button"
            className="btn btn-outline btn-error"
            disabled={busy || !password || !code}
            onClick={withPasswordAndCode("/auth/two-factor/disable", async () => {
              setVerified(false);
              setNotice("Two-factor authentication is off.");
              await refreshSession();
            })}
          >
            Turn off two-factor authentication
          </button>
        </div>
      </form>
    );
  } else {
    body = (
      <form
        className="flex flex-col gap-3"
        onSubmit={runOnSubmit(async () => {
          setCode("");
          setVerified(false);
          setEnabling(await apiSend<Enabling>("POST", "/auth/two-factor/enable", { password }));
          setPassword("");
        })}
      >
        {noticeOr("Sign-in will also ask for a code from an authenticator app.")}
        {passwordField}
        {errorLine}
        <div className="card-actions justify-end">
          <button type="submit" className="btn btn-primary" disabled={busy || !password}>
            Turn on two-factor authentication
          </button>
        </div>
      </form>
    );
  }

  return (
    <section aria-labelledby="two-factor-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 id="two-factor-title" className="card-title">
          Two-factor authentication
        </h2>
        {body}
      </div>
    </section>
  );
}

/** Backup codes, shown once: copy them, download them as a text file, then say they are saved. */
function BackupCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `PartsWorks backup codes (each works once instead of a code from your app)\n\n${codes.join("\n")}\n`;
  return (
    <>
      <p>Keep these backup codes somewhere safe; each one works once instead of a code:</p>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-1 font-mono">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="card-actions justify-end">
        <button
          type="button"
          className="btn btn-outline"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy codes"}
        </button>
        <a
          className="btn btn-outline"
          download="partsworks-backup-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
        >
          Download codes
        </a>
        <button type="button" className="btn btn-primary" onClick={onSaved}>
          I saved them
        </button>
      </div>
    </>
  );
}
