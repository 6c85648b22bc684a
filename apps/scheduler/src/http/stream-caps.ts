import { TooManyStreamsError } from '../errors/http-errors.js';
import type { Principal } from './api-env.js';

/**
 * Counts open SSE streams per principal and refuses more than `maxPerPrincipal`, so one token
 * holder cannot hold the scheduler's (and Redis') resources for everyone else.
 */
export class StreamCaps {
  readonly #open = new Map<string, number>();
  readonly maxPerPrincipal: number;

  constructor(maxPerPrincipal: number) {
    this.maxPerPrincipal = maxPerPrincipal;
  }

  /**
   * Takes a stream slot for `principal`; call the returned function once when the stream ends.
   * @throws TooManyStreamsError when the principal has `maxPerPrincipal` streams open
   */
  open(principal: Principal): () => void {
    const key = principalKey(principal);
    const count = this.#open.get(key) ?? 0;
    if (count >= this.maxPerPrincipal) throw new TooManyStreamsError(principal.name, this.maxPerPrincipal);
    this.#open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) this.#open.set(key, left);
      else this.#open.delete(key);
    };
  }

  /** Open streams of every principal. */
  get total(): number {
    let sum = 0;
    for (const count of this.#open.values()) sum += count;
    return sum;
  }

  /** Open streams of `principal`. */
  count(principal: Principal): number {
    return this.#open.get(principalKey(principal)) ?? 0;
  }
}

function principalKey(principal: Principal): string {
  return JSON.stringify([principal.name, principal.tenant ?? null]);
}
