/**
 * Flotilla's values that follow the async flow — the agent context, the durable step, a tool's
 * usage capture and progress scope — in ONE `AsyncLocalStorage`. Node 20 copies the store of
 * every enabled storage onto every promise created anywhere in the process (ioredis' and
 * BullMQ's too), so each storage adds to the cost of every promise: four cost ~1.9× one per
 * `await` (issue 15, round 2). Each slot is set by its own `run`, which keeps the other slots.
 *
 * Kept on `globalThis` under a registered symbol, so two copies of this package loaded in one
 * process still share it (bump the key's version if the frame's shape changes).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Frame {
  agent: unknown;
  step: unknown;
  usage: unknown;
  tool: unknown;
}

/** The slots of the frame: one per value that follows the async flow. */
export type FrameSlotName = keyof Frame;

const STORE_KEY = Symbol.for('@flotilla/runtime/async-frame/v1');

type GlobalWithStore = typeof globalThis & { [STORE_KEY]?: AsyncLocalStorage<Frame> };

const holder = globalThis as GlobalWithStore;
holder[STORE_KEY] ??= new AsyncLocalStorage<Frame>();
const storage: AsyncLocalStorage<Frame> = holder[STORE_KEY];

const EMPTY: Frame = { agent: undefined, step: undefined, usage: undefined, tool: undefined };

/** One value that follows the async flow, like an `AsyncLocalStorage` of its own. */
export interface FrameSlot<T> {
  /** The value of the caller's flow, or `undefined` outside any `run` of this slot. */
  get(): T | undefined;
  /** Runs `fn` with `value` in this slot for everything it awaits; the other slots are kept. */
  run<R>(value: T, fn: () => R): R;
}

/** The slot `name` of the shared frame (each name must have one owner module). */
export function frameSlot<T>(name: FrameSlotName): FrameSlot<T> {
  return {
    get: () => storage.getStore()?.[name] as T | undefined,
    run: (value, fn) => {
      const frame: Frame = { ...(storage.getStore() ?? EMPTY) };
      frame[name] = value;
      return storage.run(frame, fn);
    },
  };
}
