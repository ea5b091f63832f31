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

/**
 * `map`'s value of `key`, made by `make` the first time it is asked for: for values made from
 * objects kept elsewhere (a WeakMap then lets them go together), or from a bounded set of keys.
 */
export function madeFor<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
