/** A kept answer to a GET: its tag, its body, and its `Link`. */
export interface CachedAnswer {
  etag: string;
  text: string;
  link: string | null;
}

/**
 * Answers to GETs kept in memory by URL and accepted encoding (each coding
 * has its own tag), so that a repeated read sends `If-None-Match` and an
 * unchanged list costs a 304. The least recently used entry leaves first.
 */
export class ETagCache {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 500;
  }

  static key(url: string, acceptEncoding: string | null): string {
    return `${acceptEncoding ?? ""} ${url}`;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, answer: CachedAnswer): void {
    this.#entries.delete(key);
    this.#entries.set(key, answer);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
