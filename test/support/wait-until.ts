/** Options of {@link waitUntil}. */
export interface WaitUntilOptions {
  /** What is awaited, for the failure message (e.g. `the record of run "r1"`). */
  what: string;
  /** How long before failing with a message naming `what`. @default 30000 */
  timeoutMs?: number;
  /** The failure message, when `what` alone does not say enough. @default `Gave up after … waiting for <what>.` */
  failure?: (timeoutMs: number) => string;
}

/** How often {@link waitUntil} asks again. */
const POLL_MS = 25;

/**
 * Asks `probe` every 25 ms until it returns something other than `undefined`, and returns that:
 * how a test waits for a state another process reaches (a record, a job state, a key). The wait
 * never decides a verdict by its length; it only bounds how long the test waits for the state.
 * @throws Error naming `what` when the state is not reached within `timeoutMs`
 */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  options: WaitUntilOptions,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline)
      throw new Error(
        options.failure?.(timeoutMs) ?? `Gave up after ${timeoutMs} ms waiting for ${options.what}.`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
