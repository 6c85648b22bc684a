/**
 * `reborn(newProps?)`: returned from a handler, it ends the current generation and runs the
 * handler again in the same agent invocation with a fresh draft, keeping memory and resources
 * (spec §3.2–§3.3). Calling it without returning it does nothing.
 */

const REBORN = Symbol.for('@flotilla/runtime/reborn-signal/v1');

/** The value `reborn()` returns; only meaningful as a handler's return value. */
export interface RebornSignal<Props> {
  readonly [REBORN]: true;
  /** The props of the next generation; `undefined` keeps the current ones. */
  readonly props: Props | undefined;
}

/**
 * Asks for a new generation. `newProps` replaces the props wholesale (no merge); omitted or
 * `null` keeps the current props. Return it: `return reborn({ attempt: n + 1 })`.
 */
export function reborn<Props = never>(newProps?: Props | null): RebornSignal<Props> {
  return { [REBORN]: true, props: newProps ?? undefined };
}

/** Whether `value` is a {@link RebornSignal}. */
export function isRebornSignal(value: unknown): value is RebornSignal<unknown> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REBORN] === true;
}
