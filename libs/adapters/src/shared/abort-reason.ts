/**
 * The error to throw for a cancelled call: the signal's own reason (an `AbortError`
 * `DOMException` unless the canceller gave one), so callers see their cancellation, never a
 * provider failure.
 */
export function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The model call was aborted.', 'AbortError');
}
