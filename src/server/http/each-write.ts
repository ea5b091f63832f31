import type { RouteApp } from "./page";

/**
 * `changed` is told of every successful write among the routes registered on `app` (a method
 * other than GET and HEAD, answered below 400) as its answer leaves: what it clears in this
 * process is cleared before the writer reads again (read your writes), while the other processes
 * hear of the change by the change bus.
 */
export function onEachWrite(app: RouteApp, changed: () => void): void {
  app.addHook("onSend", (req, reply, payload, done) => {
    if (req.method !== "GET" && req.method !== "HEAD" && reply.statusCode < 400) changed();
    done(null, payload);
  });
}
