/**
 * Logs a repeated condition at most once per `intervalMs`, with how many were left out, so an
 * outage answered to every request does not flood the log.
 */
export function rateLimitedLog(intervalMs: number, log: (suppressed: number) => void): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return () => {
    const now = Date.now();
    if (now - last < intervalMs) {
      suppressed += 1;
      return;
    }
    last = now;
    log(suppressed);
    suppressed = 0;
  };
}
