import { createHash } from "node:crypto";

export interface CachedResponse {
  /** The JSON body, serialized once. */
  body: string;
  etag: string;
  /** For lists: the X-Total-Count value. */
  total?: number;
}

/**
 * The public catalog's answers, kept serialized in memory. Any change to the products table
 * (here or in another server process: see catalog-changes.ts) clears it. A fill that started
 * before a clear is dropped, so a slow read can never put stale data back.
 */
export class CatalogReadCache {
  private entries = new Map<string, CachedResponse>();
  private generation = 0;
  private enabled: boolean;

  constructor(
    private readonly maxEntries = 2000,
    enabled = true,
  ) {
    this.enabled = enabled;
  }

  /** Answers from the cache, or computes, stores and answers. */
  async get(key: string, compute: () => Promise<{ value: unknown; total?: number } | undefined>) {
    const hit = this.enabled ? this.entries.get(key) : undefined;
    if (hit) return hit;
    const startedAt = this.generation;
    const computed = await compute();
    if (!computed) return undefined;
    const body = JSON.stringify(computed.value);
    const entry: CachedResponse = {
      body,
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
      total: computed.total,
    };
    if (this.enabled && startedAt === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        // Drop the oldest entry (Map keeps insertion order).
        this.entries.delete(this.entries.keys().next().value!);
      }
      this.entries.set(key, entry);
    }
    return entry;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** While changes cannot be heard (the listener is reconnecting), nothing is cached. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.invalidate();
  }

  get size(): number {
    return this.entries.size;
  }
}
