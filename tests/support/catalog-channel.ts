import { listenForChanges, type ChannelChange } from "../../src/server/changes/listener";
import type { TestApp } from "./test-app";

/**
 * Listens on the catalog's NOTIFY channel as a server process does (pinged every 100 ms), and
 * keeps what it hears: `heard(kind)` counts the notifications of one kind so far, `listening()`
 * whether the listener is proven to hear. `stop()` when done.
 */
export function hearCatalogChannel(t: TestApp) {
  const heard: ChannelChange[] = [];
  const states: boolean[] = [];
  const listener = listenForChanges(
    t.database.directUrl,
    { onChange: (c) => heard.push(c), onListening: (l) => states.push(l) },
    { warn: () => {} },
    {
      notify: (channel, payload) =>
        t.database.pool.query("select pg_notify($1, $2)", [channel, payload]),
      pingMs: 100,
    },
  );
  return {
    heard: (kind: ChannelChange) => heard.filter((c) => c === kind).length,
    listening: () => states.at(-1) === true,
    stop: () => listener.stop(),
  };
}
