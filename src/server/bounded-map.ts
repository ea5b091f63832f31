/**
 * Keeps `value` under `key` in a map of at most `max` entries: the key becomes the newest, and
 * past `max` the oldest is dropped (a Map keeps insertion order). Setting a key again on every
 * use makes it least-recently-used; setting it once, first-in-first-out.
 */
export function keepBounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
