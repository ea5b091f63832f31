import { listenForChanges, type ChannelChange } from "../../src/server/changes/listener";
import type { TestApp } from "./test-app";

/**
 * Listens on the catalog's NOTIFY channel as a server process does (pinged every `pingMs`, 100 ms
 * unless told), and keeps what it hears: `heard(kind)` counts the notifications of one kind so
 * far, `listening()` whether the listener is proven to hear. `stop()` when done. A ping unheard
 * within its interval makes the listener reconnect, and what is sent meanwhile is not heard: a
 * test that counts every notification pings slowly, so a loaded machine's late event loop does
 * not look like a deaf connection.
 */
export function hearCatalogChannel(t: TestApp, opts: { pingMs?: number } = {}) {
  const heard: ChannelChange[] = [];
  const states: boolean[] = [];
  const listener = listenForChanges(
    t.database.directUrl,
    { onChange: (c) => heard.push(c), onListening: (l) => states.push(l) },
    { warn: () => {} },
    {
      notify: (channel, payload) =>
        t.database.pool.query("select pg_notify($1, $2)", [channel, payload]),
      pingMs: opts.pingMs ?? 100,
    },
  );
  return {
    heard: (kind: ChannelChange) => heard.filter((c) => c === kind).length,
    listening: () => states.at(-1) === true,
    stop: () => listener.stop(),
  };
}
