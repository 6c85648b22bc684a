import { redactingLogOptions } from '@flotilla/runtime/internals';
import type { LogLevel } from '@flotilla/runtime/worker';
import { type Logger, pino } from 'pino';

/**
 * The worker's pino logger: JSON lines on stdout at `level`, named `flotilla-worker`. Run
 * counters do not come from it (they come from the worker's `onRunStart` / `onRunEnd` hooks),
 * so log messages and `LOG_LEVEL` can change freely. Credentials are redacted from every line.
 */
export function createWorkerLogger(level: LogLevel): Logger {
  return pino({ name: 'flotilla-worker', level, ...redactingLogOptions() }, pino.destination(1));
}
