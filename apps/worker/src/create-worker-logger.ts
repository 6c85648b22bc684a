import type { LogLevel } from '@flotilla/runtime';
import { type Logger, pino } from 'pino';
import type { RunMetricEvent, RunMetrics } from './run-metrics.js';

/**
 * The runtime's worker reports each run's start and end once, as log lines from its run
 * processor: `run started`, then `run succeeded` | `run failed` | `run cancelled`, with the agent
 * id in the bindings (or in the line, for runs failed outside the processor). createWorker
 * offers no other per-run signal, so the counters are fed from those lines; the app tests read
 * `/metrics` after real runs, so a renamed message fails them.
 */
const RUN_MESSAGES: Readonly<Record<string, RunMetricEvent>> = {
  'run started': 'started',
  'run succeeded': 'succeeded',
  'run failed': 'failed',
  'run cancelled': 'cancelled',
};

/**
 * The worker's pino logger: JSON lines on stdout at `level`, named `flotilla-worker`, that also
 * feeds `metrics`. The logger itself runs at `info` at least (the run lines are `info`/`error`),
 * and only the output is filtered at `level`, so the counters do not depend on `LOG_LEVEL`.
 */
export function createWorkerLogger(level: LogLevel, metrics: RunMetrics): Logger {
  const loggerLevel = level === 'trace' || level === 'debug' ? level : 'info';
  const streams = level === 'silent' ? [] : [{ level, stream: pino.destination(1) }];
  return pino(
    {
      name: 'flotilla-worker',
      level: loggerLevel,
      hooks: {
        logMethod(args, method) {
          const message = args.at(-1);
          const event = typeof message === 'string' ? RUN_MESSAGES[message] : undefined;
          if (event) metrics.record(event, agentIdOf(this.bindings(), args[0]));
          return method.apply(this, args);
        },
      },
    },
    pino.multistream(streams),
  );
}

function agentIdOf(bindings: Record<string, unknown>, first: unknown): string {
  const fromLine =
    typeof first === 'object' && first !== null ? (first as { agentId?: unknown }).agentId : undefined;
  const agentId = bindings.agentId ?? fromLine;
  return typeof agentId === 'string' ? agentId : 'unknown';
}
