import type { WorkerRunHooks } from '@flotilla/runtime/worker';

/** A run outcome the worker counts. */
export type RunMetricEvent = 'started' | 'succeeded' | 'failed' | 'cancelled';

const COUNTERS: Record<RunMetricEvent, { name: string; help: string }> = {
  started: {
    name: 'flotilla_runs_started_total',
    help: 'Runs this worker started executing (a replay after a crash counts again).',
  },
  succeeded: { name: 'flotilla_runs_completed_total', help: 'Runs this worker completed successfully.' },
  failed: { name: 'flotilla_runs_failed_total', help: 'Runs that failed on this worker.' },
  cancelled: { name: 'flotilla_runs_cancelled_total', help: 'Runs cancelled while this worker ran them.' },
};

/** The label of runs of agents this worker does not serve. */
export const UNKNOWN_AGENT_LABEL = 'unknown';

/**
 * Per-process run counters by agent id, rendered in the Prometheus text exposition format
 * (version 0.0.4) for `GET /metrics`. Fed by the worker's lifecycle hooks ({@link hooks}).
 * Agent ids come from clients (a submit names any id), so only the agents the worker serves get
 * their own series; every other id counts as `unknown`, which keeps the series bounded.
 */
export class RunMetrics {
  readonly #counts = new Map<RunMetricEvent, Map<string, number>>();
  readonly #served: ReadonlySet<string> | undefined;

  /** @param servedAgents the agent ids labelled by name; others are `unknown`. @default every id labelled (tests) */
  constructor(servedAgents?: Iterable<string>) {
    this.#served = servedAgents === undefined ? undefined : new Set(servedAgents);
  }

  /** The `createWorker` hooks that count every run start and end of this worker. */
  hooks(): Required<WorkerRunHooks> {
    return {
      onRunStart: (info) => this.record('started', info.agentId),
      onRunEnd: (info) => this.record(info.status, info.agentId),
    };
  }

  /** Counts one `event` of a run of `agentId`. */
  record(event: RunMetricEvent, agentId: string): void {
    const label = this.#served === undefined || this.#served.has(agentId) ? agentId : UNKNOWN_AGENT_LABEL;
    const byAgent = this.#counts.get(event) ?? new Map<string, number>();
    byAgent.set(label, (byAgent.get(label) ?? 0) + 1);
    this.#counts.set(event, byAgent);
  }

  /** The count of `event` for `agentId`, or over every agent when it is left out. */
  count(event: RunMetricEvent, agentId?: string): number {
    const byAgent = this.#counts.get(event);
    if (!byAgent) return 0;
    if (agentId !== undefined) return byAgent.get(agentId) ?? 0;
    return [...byAgent.values()].reduce((sum, value) => sum + value, 0);
  }

  /** Every counter (also the ones still at 0, so dashboards see them) plus `gauges`. */
  render(gauges: Record<string, { help: string; value: number }> = {}): string {
    const lines: string[] = [];
    for (const [event, { name, help }] of Object.entries(COUNTERS) as [
      RunMetricEvent,
      (typeof COUNTERS)[RunMetricEvent],
    ][]) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      const byAgent = this.#counts.get(event);
      if (!byAgent || byAgent.size === 0) lines.push(`${name} 0`);
      for (const [agentId, value] of byAgent ?? [])
        lines.push(`${name}{agent="${escapeLabel(agentId)}"} ${value}`);
    }
    for (const [name, { help, value }] of Object.entries(gauges)) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

/** Label values escape backslash, double quote and line feed (exposition format rules). */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
