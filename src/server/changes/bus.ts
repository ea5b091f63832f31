import { listenForChanges, type ChannelChange } from "./listener";

/** What a subscriber gives the bus: what to clear on its topics, and whether to trust itself. */
export interface ChangeSubscriber {
  /** `key`: what of the topic changed, when its payload says (`addresses:<user id>`); else all. */
  invalidate(topic: ChannelChange, key?: string): void;
  /** Told when the bus starts or stops hearing: a cache answers from memory only while it hears. */
  setListening?(listening: boolean): void;
}

/**
 * The store's one LISTEN/NOTIFY bus (decision 008): one listening connection per process
 * (`listener.ts`, proving by pings that it hears), and the caches that subscribe to its topics
 * (`stock`, `catalog`, `prices`, `sessions`). Each subscriber is told in the order it subscribed.
 */
export function startChangeBus(
  url: string,
  log: Parameters<typeof listenForChanges>[2],
  opts?: Parameters<typeof listenForChanges>[3],
) {
  const subscriptions: { topics: ReadonlySet<ChannelChange>; subscriber: ChangeSubscriber }[] = [];
  let listening = false;
  const listener = listenForChanges(
    url,
    {
      onChange: (topic, key) => {
        for (const { topics, subscriber } of subscriptions) {
          if (topics.has(topic)) subscriber.invalidate(topic, key);
        }
      },
      onListening: (value) => {
        listening = value;
        for (const { subscriber } of subscriptions) subscriber.setListening?.(value);
      },
    },
    log,
    opts,
  );
  return {
    subscribe(topics: readonly ChannelChange[], subscriber: ChangeSubscriber): void {
      subscriptions.push({ topics: new Set(topics), subscriber });
      // A late subscriber is told what the others were.
      if (listening) subscriber.setListening?.(true);
    },
    stop: () => listener.stop(),
  };
}

export type ChangeBus = ReturnType<typeof startChangeBus>;
