/** At most this many undelivered events per subscriber; a client that far behind loses the oldest. */
const MAX_BUFFERED = 1_000;

/**
 * The event stream of one subscription. Unlike an async generator it can be
 * ended while a consumer waits for the next event (a client disconnecting),
 * and it runs `onEnd` exactly once however it ends.
 */
export class SubscriptionQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffered: T[] = [];
  private readonly waiting: ((result: IteratorResult<T, undefined>) => void)[] = [];
  private ended = false;

  constructor(private readonly onEnd: () => Promise<void>) {}

  push(value: T): void {
    if (this.ended) return;
    const consumer = this.waiting.shift();
    if (consumer) {
      consumer({ value, done: false });
      return;
    }
    if (this.buffered.length >= MAX_BUFFERED) this.buffered.shift();
    this.buffered.push(value);
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const value = this.buffered.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    await this.end();
    return { value: undefined, done: true };
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.buffered.length = 0;
    for (const consumer of this.waiting.splice(0)) consumer({ value: undefined, done: true });
    await this.onEnd();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
