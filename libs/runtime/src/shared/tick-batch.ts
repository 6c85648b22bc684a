/**
 * Calls made in one tick, sent as one: a fan-out's children settle (or are created) together,
 * each continuation making the same kind of write or read on one key, so one command with every
 * item replaces one command per item. Sent after the microtasks of the tick that made the first
 * call (`process.nextTick`), as ioredis flushes its writes: calls woken by one batch of replies
 * are all in (replies split over two socket reads make two batches). Not `setImmediate`: fake
 * timers in a user's tests (which fake it by default) would hold a client's writes.
 */

/** Sends `items` as one and answers one result per item, in order. */
export type SendBatch<I, O> = (items: readonly I[]) => Promise<readonly O[]>;

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export class TickBatch<I, O> {
  readonly #send: SendBatch<I, O>;
  #pending: Pending<I, O>[] | undefined;

  constructor(send: SendBatch<I, O>) {
    this.#send = send;
  }

  /** `item`'s result once its tick's batch is sent; rejects with the batch's failure. */
  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      if (this.#pending === undefined) {
        this.#pending = [];
        process.nextTick(() => this.#flush());
      }
      this.#pending.push({ item, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending ?? [];
    this.#pending = undefined;
    try {
      const results = await this.#send(batch.map(({ item }) => item));
      for (let i = 0; i < batch.length; i++) batch[i]?.resolve(results[i] as O);
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }
}
