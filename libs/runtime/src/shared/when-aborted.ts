/**
 * One promise per signal, resolved when it aborts: a fan-out of many pending children (or waits)
 * adds one abort listener to its agent's signal, not one per call (which also tripped Node's
 * MaxListenersExceededWarning past 10). Each waiting call chains its own AbortError on it.
 */
const abortPromises = new WeakMap<AbortSignal, Promise<void>>();

/** Resolves once `signal` aborts (at once when it already has). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  let aborted = abortPromises.get(signal);
  if (!aborted) {
    aborted = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    abortPromises.set(signal, aborted);
  }
  return aborted;
}

/** The text of an abort signal's (or a run abort's) reason. */
export function abortReason(signal: { readonly reason: unknown }): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message;
  return 'Cancelled';
}
