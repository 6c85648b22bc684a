/**
 * A timer for any delay. Node fires a `setTimeout` longer than 2^31 − 1 ms (~24.8 days) at once
 * (with only a warning), so a run deadline or tool timeout of a month would expire immediately;
 * longer waits are chained here in steps Node accepts.
 */

/** The longest delay Node's `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `fn` once, `ms` milliseconds from now (at once for `ms <= 0`); `clear()` cancels it. */
export function setLongTimer(fn: () => void, ms: number): { clear(): void } {
  const due = Date.now() + Math.max(0, ms);
  let timer: NodeJS.Timeout;
  const arm = (): void => {
    const left = due - Date.now();
    timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm();
  return { clear: () => clearTimeout(timer) };
}
