import type { ActiveSession } from "#contract/auth";
import { formatDateTime } from "../../../lib/format";
import { useActiveSessions, useEndSessions } from "../api/sessions";
import { RowButton } from "../../../components/edit-remove-buttons";

/**
 * My Profile → "Where you are signed in": every browser with a live session, this one first and
 * marked; any other can be signed out, or all of them at once.
 */
export function ActiveSessions() {
  const sessions = useActiveSessions();
  const end = useEndSessions();
  const list = [...(sessions.data?.sessions ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current),
  );
  const others = list.filter((s) => !s.current).length;
  return (
    <section aria-labelledby="active-sessions" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 id="active-sessions" className="card-title">
          Where you are signed in
        </h2>
        <p className="text-sm">
          Sign out a browser you do not recognise or no longer use. Every sign-in also ends by
          itself after a while, however often it is used.
        </p>
        {sessions.error && (
          <p role="alert" className="text-error text-sm">
            {sessions.error.message}
          </p>
        )}
        <ul aria-label="Signed-in browsers" className="flex flex-col divide-y divide-base-300">
          {list.map((s) => (
            <SessionRow
              key={s.id}
              session={s}
              busy={end.isPending}
              onEnd={() => end.mutate(s.id)}
            />
          ))}
        </ul>
        {end.error && (
          <p role="alert" className="text-error text-sm">
            {end.error.message}
          </p>
        )}
        {end.isSuccess && end.data && typeof end.data === "object" && (
          <p role="status" className="text-sm">
            {end.data.ended === 1
              ? "1 other browser is signed out."
              : `${end.data.ended} other browsers are signed out.`}
          </p>
        )}
        {others > 0 && (
          <div className="card-actions justify-end">
            <button
              type="button"
              className="btn btn-outline btn-error"
              disabled={end.isPending}
              onClick={() => end.mutate("others")}
            >
              Sign out other sessions
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

function SessionRow(props: { session: ActiveSession; busy: boolean; onEnd: () => void }) {
  const s = props.session;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div className="min-w-0">
        <p className="font-medium">
          {s.device}
          {s.current && <span className="badge badge-success badge-sm ml-2">This browser</span>}
        </p>
        <p className="text-sm text-base-content/70">
          Signed in {formatDateTime(s.createdAt)}
          {s.ipAddress && <> from {s.ipAddress}</>} · last active {formatDateTime(s.lastSeenAt)} ·
          ends by {formatDateTime(s.endsBy)}
        </p>
      </div>
      {!s.current && (
        <RowButton
          label={`Sign out ${s.device}, signed in ${formatDateTime(s.createdAt)}`}
          tone="outline"
          disabled={props.busy}
          onClick={props.onEnd}
        >
          Sign out
        </RowButton>
      )}
    </li>
  );
}
