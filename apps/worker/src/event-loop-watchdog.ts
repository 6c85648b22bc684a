/**
 * Detects a blocked event loop (a synchronous infinite loop in an agent or tool). A blocked loop
 * cannot run its own timers, so the watch runs on a worker thread: the main thread stamps a
 * shared clock every `checkMs`; when the stamp is older than `blockMs`, the thread writes a
 * `fatal` log line (pino's JSON shape) and SIGKILLs the process. Its runs are then taken over
 * by other workers (BullMQ stalled-job recovery), replayed from their journals. The main thread
 * also measures loop delay (`monitorEventLoopDelay`) for `/healthz`.
 */
import { hostname } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/** Options of {@link startEventLoopWatchdog}. */
export interface EventLoopWatchdogOptions {
  /** The process exits when its loop is blocked this long; 0 disables the watchdog. */
  blockMs: number;
  /** How often the loop is stamped and checked. @default min(250, blockMs / 4) */
  checkMs?: number;
  /** The logger name of the fatal line. @default 'flotilla-worker' */
  name?: string;
}

/** A running watchdog. */
export interface EventLoopWatchdog {
  /** The longest loop delay (ms) since the previous call. */
  takeMaxDelayMs(): number;
  stop(): Promise<void>;
}

// Runs on the watch thread (CommonJS, evaluated from this string so it needs no file of its own).
const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const stamp = new BigInt64Array(workerData.buffer);
const timer = setInterval(() => {
  const blockedMs = Date.now() - Number(Atomics.load(stamp, 0));
  if (blockedMs <= workerData.blockMs) return;
  clearInterval(timer);
  const line = { level: 60, time: Date.now(), pid: workerData.pid, hostname: workerData.hostname,
    name: workerData.name, blockedMs, thresholdMs: workerData.blockMs,
    msg: 'event loop blocked: exiting so other workers take its runs over (FLOTILLA_EVENT_LOOP_BLOCK_MS)' };
  writeSync(1, JSON.stringify(line) + '\\n');
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.checkMs);
`;

/** Starts the watch thread (none when `blockMs` is 0) and the loop delay histogram. */
export function startEventLoopWatchdog(options: EventLoopWatchdogOptions): EventLoopWatchdog {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const takeMaxDelayMs = () => {
    const max = histogram.max / 1e6;
    histogram.reset();
    return Math.round(max);
  };
  if (options.blockMs === 0) {
    return {
      takeMaxDelayMs,
      stop: async () => {
        histogram.disable();
      },
    };
  }
  const checkMs = options.checkMs ?? Math.max(1, Math.min(250, Math.floor(options.blockMs / 4)));
  const buffer = new SharedArrayBuffer(8);
  const stamp = new BigInt64Array(buffer);
  const tick = () => Atomics.store(stamp, 0, BigInt(Date.now()));
  tick();
  const ticker = setInterval(tick, checkMs);
  ticker.unref();
  const thread = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: {
      buffer,
      blockMs: options.blockMs,
      checkMs,
      pid: process.pid,
      hostname: hostname(),
      name: options.name ?? 'flotilla-worker',
    },
  });
  thread.unref();
  return {
    takeMaxDelayMs,
    stop: async () => {
      clearInterval(ticker);
      histogram.disable();
      await thread.terminate();
    },
  };
}
