/**
 * The `equipMemory` / `equipMemo` values of one agent invocation: a JSON-only map that lives
 * across reborns, written through to the run's {@link RunMemoryStore} under the invocation's
 * callPath so a replay on another worker sees the latest values.
 */

import { SETTLED } from '../shared/settled.js';
import { cloneJsonValue } from './clone-json-value.js';
import type { RunState } from './run-state.js';

/** The memory of one agent invocation. Reads and writes copy, so callers never share objects. */
export class AgentMemory {
  private readonly values = new Map<string, unknown>();
  private readonly run: RunState;
  private readonly callPath: string;
  /** Loaded empty and not written since: the store holds nothing of this invocation. */
  #storesNothing = false;

  constructor(run: RunState, callPath: string) {
    this.run = run;
    this.callPath = callPath;
  }

  /**
   * Loads what the store holds for this invocation (a replay continues from it). Read ahead
   * already (the worker's run start reads the root invocation's): taken at once, and the
   * shared settled promise returned (nothing to await).
   * @throws SyntaxError when a stored value read ahead is not JSON (a rejection when read now)
   */
  load(): Promise<void> {
    const { memory } = this.run.services;
    const ready = memory.loaded?.(this.callPath);
    if (ready) {
      this.#fill(ready);
      return SETTLED;
    }
    // One `.then`, not an async function awaiting (a promise fewer per invocation).
    return memory.load(this.callPath).then((stored) => this.#fill(stored));
  }

  #fill(stored: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(stored)) this.values.set(key, value);
    this.#storesNothing = this.values.size === 0;
  }

  /**
   * Whether the run's store surely holds nothing of this invocation: it loaded empty and nothing
   * was written since (only this invocation writes its callPath), so there is nothing to clear.
   */
  get storesNothing(): boolean {
    return this.#storesNothing;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** A copy of the stored value, `undefined` when absent. */
  get(key: string): unknown {
    const value = this.values.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  /**
   * Stores a copy of `value` and writes it through to the run's memory store.
   * @throws TypeError when `value` is not JSON (`context` names the hook).
   */
  set(key: string, value: unknown, context: string): void {
    const copy = cloneJsonValue(value, context);
    this.#storesNothing = false;
    this.values.set(key, copy);
    this.run.trackWrite(this.run.services.memory.set(this.callPath, key, copy));
  }

  /** Every key and value, copied (for events and tests). */
  snapshot(): Record<string, unknown> {
    return structuredClone(Object.fromEntries(this.values));
  }
}
