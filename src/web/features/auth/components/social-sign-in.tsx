import { useState } from "react";
import { ApiError } from "../../../lib/api-client";
import { useSiteConfig } from "../../../lib/use-site-config";
import { startSocialSignIn } from "../api/sign-in";

/** One button per configured social provider (Google, GitHub, an OIDC issuer). */
export function SocialSignIn({ returnTo }: { returnTo: string }) {
  const providers = useSiteConfig().data?.socialProviders ?? [];
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (providers.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="divider text-sm text-base-content/70">or</div>
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          className="btn btn-outline w-full"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(undefined);
            try {
              await startSocialSignIn(p.id, returnTo);
            } catch (e) {
              setError(e instanceof ApiError ? e.message : "Could not reach the sign-in service");
              setBusy(false);
            }
          }}
        >
          Continue with {p.label}
        </button>
      ))}
      {error && (
        <p role="alert" className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}
