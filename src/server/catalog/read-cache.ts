import { createHash } from "node:crypto";
import { keepBounded } from "../bounded-map";

export interface CachedResponse {
  /**
   * The JSON body, serialized and encoded once: a Buffer goes to the socket as it is, where a
   * string would be encoded again on every answer (10 KB for a page of 24 products).
   */
  body: Buffer;
  etag: string;
}

/**
 * What changed in the products table: `stock` (only available quantities, as every order does)
 * or `catalog` (anything else: a product added, edited or removed).
 */
export type CatalogChange = "stock" | "catalog";

/**
 * The public catalog's answers, kept serialized in memory, and the totals of its lists. Every
 * change clears the answers (they show stock); only a `catalog` change clears the totals, so
 * orders never make the store count a large table again. Changes come from this process's writes
 * and, through NOTIFY, from every other process (changes/listener.ts). A fill that started before
 * a change is not kept, so a slow read can never put stale data back.
 */
export class CatalogReadCache {
  private entries = new Map<string, CachedResponse>();
  private totals = new Map<string, number>();
  /** The keys that answered a URL (path and query as sent): see `answerFor`. */
  private urls = new Map<string, { key: string; totalKey: string | undefined }>();
  private generation = 0;
  private totalsGeneration = 0;
  private listening = false;
  /** Told of every answer asked for: found in the cache or not (the metrics count them). */
  onLookup: (hit: boolean) => void = () => {};
  /** Told of every change (the read replica's reads then wait for it to replay the change). */
  onInvalidate: () => void = () => {};
  /**
   * Whether the read under way passes the cache by, neither answered from it nor kept in it: a
   * caller reading their own writes (db/read-replica.ts), whom another node's cache, cleared only
   * when its NOTIFY arrives, could answer with what was there before.
   */
  passBy: () => boolean = () => false;

  /**
   * @param cacheAnswers false keeps only the totals (CATALOG_CACHE=false: every page is read from
   *   the database, which is how the scale benchmark measures the queries themselves).
   */
  constructor(
    private readonly maxEntries = 2000,
    private readonly cacheAnswers = true,
  ) {}

  private get enabled() {
    return this.listening && this.cacheAnswers;
  }

  /** Answers from the cache, or computes, stores and answers. */
  async get(key: string, compute: () => Promise<unknown>): Promise<CachedResponse | undefined> {
    const keep = this.enabled && !this.passBy();
    const hit = keep ? this.entries.get(key) : undefined;
    this.onLookup(hit !== undefined);
    if (hit) return hit;
    const startedAt = this.generation;
    const value = await compute();
    if (value === undefined) return undefined;
    const body = Buffer.from(JSON.stringify(value));
    const entry = { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
    if (keep && this.enabled && startedAt === this.generation)
      keepBounded(this.entries, key, entry, this.maxEntries);
    return entry;
  }

  /** The total of a list (by its filters' key), counted once per catalog change. */
  async total(q: string, count: () => Promise<number>): Promise<number> {
    const keep = this.listening && !this.passBy();
    const hit = keep ? this.totals.get(q) : undefined;
    if (hit !== undefined) return hit;
    const startedAt = this.totalsGeneration;
    const value = await count();
    // Kept with CATALOG_CACHE=false too (cacheAnswers false), as the constructor says.
    if (keep && this.listening && startedAt === this.totalsGeneration)
      keepBounded(this.totals, q, value, this.maxEntries);
    return value;
  }

  /**
   * Notes that `url` is answered by the entry `key` alone, or with the total `totalKey`: nothing
   * else (no database read, no check that can fail) goes into its answer. URLs are not cleared
   * with the answers: the same URL always parses to the same keys.
   */
  rememberUrl(url: string, key: string, totalKey?: string): void {
    if (this.urls.get(url)?.key !== key)
      keepBounded(this.urls, url, { key, totalKey }, this.maxEntries);
  }

  /**
   * What `get` and `total` would answer at once for a URL noted by `rememberUrl`, if all of it is
   * cached (counted as a hit, as `get` counts it); undefined otherwise, and nothing counted.
   */
  answerFor(url: string): { response: CachedResponse; total: number | undefined } | undefined {
    const answer = this.find(url);
    if (answer) this.onLookup(true);
    return answer;
  }

  /**
   * Whether `answerFor(url)` would answer now, nothing counted: the overload shedding lets such a
   * read through (it needs no database).
   */
  canAnswer(url: string): boolean {
    return this.find(url) !== undefined;
  }

  private find(url: string): { response: CachedResponse; total: number | undefined } | undefined {
    if (!this.enabled) return undefined;
    const keys = this.urls.get(url);
    if (!keys) return undefined;
    const response = this.entries.get(keys.key);
    if (!response) return undefined;
    const total = keys.totalKey === undefined ? undefined : this.totals.get(keys.totalKey);
    if (keys.totalKey !== undefined && total === undefined) return undefined;
    return { response, total };
  }

  invalidate(change: CatalogChange): void {
    this.onInvalidate();
    this.generation += 1;
    this.entries.clear();
    if (change === "catalog") {
      this.totalsGeneration += 1;
      this.totals.clear();
    }
  }

  /** While changes cannot be heard (the listener is reconnecting), nothing is cached. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate("catalog");
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The key of a list query: every field the route parsed, in a fixed (sorted) order, with empty
 * ones left out, so a filter added to the contract is part of the key without touching this.
 */
export function queryKey(kind: string, query: object): string {
  const fields = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== "")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([kind, fields]);
}
