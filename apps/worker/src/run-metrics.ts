import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  type GateParkObservation,
  type MemoObservation,
  type ModelCallObservation,
  ObservationChannel,
  type ResourceCallObservation,
  type WorkerRunHooks,
} from '@flotilla/runtime/worker';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** A run outcome the worker counts. */
export type RunMetricEvent = 'started' | 'succeeded' | 'failed' | 'cancelled';

/** The label of runs of agents this worker does not serve (and of models it was not given). */
export const UNKNOWN_AGENT_LABEL = 'unknown';

/** Options of {@link RunMetrics}. */
export interface RunMetricsOptions {
  /** The agent ids labelled by name; others are `unknown`. @default every id labelled (tests) */
  servedAgents?: Iterable<string>;
  /** Also collect prom-client's default process metrics (CPU, memory, GC, event-loop lag). @default false */
  processMetrics?: boolean;
}

// Runs last from milliseconds (a replayed run) to hours (trees waiting for children).
const RUN_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
const MODEL_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
const BROKER_SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30];

/**
 * The worker's Prometheus metrics (prom-client, one registry per worker app) for `GET /metrics`:
 * run counters and durations from the worker's lifecycle hooks ({@link hooks}), model calls,
 * memo reads and broker calls from the runtime's `diagnostics_channel` observations
 * ({@link subscribe}), and the gauges the app registers on {@link registry}. Agent ids come from
 * clients (a submit names any id), so only the agents the worker serves get their own series;
 * every other id counts as `unknown`, which keeps the series bounded.
 */
export class RunMetrics {
  readonly registry = new Registry();
  readonly #served: ReadonlySet<string> | undefined;
  readonly #runs: Record<RunMetricEvent, Counter<'agent'>>;
  readonly #runSeconds: Histogram<'agent' | 'status'>;
  readonly #modelSeconds: Histogram<'agent' | 'provider' | 'model' | 'outcome'>;
  readonly #tokens: Counter<'provider' | 'model' | 'kind'>;
  readonly #memo: Counter<'outcome'>;
  readonly #broker: Histogram<'outcome'>;
  readonly #gateParks: Counter<'agent' | 'kind'>;
  readonly #listeners: [string, (message: unknown) => void][] = [];

  constructor(options: RunMetricsOptions = {}) {
    this.#served = options.servedAgents === undefined ? undefined : new Set(options.servedAgents);
    const registers = [this.registry];
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['agent'] as const, registers });
    this.#runs = {
      started: counter(
        'flotilla_runs_started_total',
        'Run executions this worker started (a retry, a replay after a crash and a resume after child runs count again).',
      ),
      succeeded: counter('flotilla_runs_completed_total', 'Runs this worker completed successfully.'),
      failed: counter('flotilla_runs_failed_total', 'Runs that failed on this worker.'),
      cancelled: counter('flotilla_runs_cancelled_total', 'Runs cancelled while this worker ran them.'),
    };
    this.#runSeconds = new Histogram({
      name: 'flotilla_run_duration_seconds',
      help: 'From a run’s first start to its end (suspensions and retry waits included), by the worker that ended it.',
      labelNames: ['agent', 'status'] as const,
      buckets: RUN_SECONDS,
      registers,
    });
    this.#modelSeconds = new Histogram({
      name: 'flotilla_model_call_duration_seconds',
      help: 'Live model calls (replayed turns are not calls), by agent, provider, model and outcome (ok|error).',
      labelNames: ['agent', 'provider', 'model', 'outcome'] as const,
      buckets: MODEL_SECONDS,
      registers,
    });
    this.#tokens = new Counter({
      name: 'flotilla_model_tokens_total',
      help: 'Tokens of live model calls, by provider, model and kind (input|output).',
      labelNames: ['provider', 'model', 'kind'] as const,
      registers,
    });
    this.#memo = new Counter({
      name: 'flotilla_memo_reads_total',
      help: 'Fleet memo reads, by outcome (hit: stored; miss: computed or waited for).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.#broker = new Histogram({
      name: 'flotilla_resource_broker_call_duration_seconds',
      help: 'Calls through the resource broker to a resource owned by another worker, by outcome (ok|error).',
      labelNames: ['outcome'] as const,
      buckets: BROKER_SECONDS,
      registers,
    });
    this.#gateParks = new Counter({
      name: 'flotilla_gate_parks_total',
      help: 'Runs this worker parked at the waiting gate (they gave their slot back), by agent and waitingFor kind.',
      labelNames: ['agent', 'kind'] as const,
      registers,
    });
    // Every series at 0 from the start, so dashboards and rate() see them before the first run.
    for (const agent of this.#served ?? [])
      for (const runs of Object.values(this.#runs)) runs.inc({ agent }, 0);
    for (const outcome of ['hit', 'miss']) this.#memo.inc({ outcome }, 0);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** The `createWorker` hooks that count every run start and end of this worker. */
  hooks(): Required<WorkerRunHooks> {
    return {
      onRunStart: (info) => this.record('started', info.agentId),
      onRunEnd: (info) => {
        this.record(info.status, info.agentId);
        this.#runSeconds.observe(
          { agent: this.#agent(info.agentId), status: info.status },
          info.durationMs / 1000,
        );
      },
    };
  }

  /** Listens to the runtime's observations (model calls, memo reads, broker calls) until {@link close}. */
  subscribe(): this {
    this.#listen(ObservationChannel.modelCall, (call: ModelCallObservation) => {
      const series = { provider: call.provider, model: call.model };
      const outcome = call.ok ? 'ok' : 'error';
      this.#modelSeconds.observe(
        { agent: this.#agent(call.agentId), ...series, outcome },
        call.durationMs / 1000,
      );
      this.#tokens.inc({ ...series, kind: 'input' }, call.promptTokens);
      this.#tokens.inc({ ...series, kind: 'output' }, call.completionTokens);
    });
    this.#listen(ObservationChannel.gatePark, (park: GateParkObservation) =>
      this.#gateParks.inc({ agent: this.#agent(park.agentId), kind: park.kind }),
    );
    this.#listen(ObservationChannel.memo, (read: MemoObservation) =>
      this.#memo.inc({ outcome: read.outcome }),
    );
    this.#listen(ObservationChannel.resourceCall, (call: ResourceCallObservation) =>
      this.#broker.observe({ outcome: call.ok ? 'ok' : 'error' }, call.durationMs / 1000),
    );
    return this;
  }

  /** Stops listening to the runtime's observations. */
  close(): void {
    for (const [name, listener] of this.#listeners.splice(0)) unsubscribe(name, listener);
  }

  /** Counts one `event` of a run of `agentId`. */
  record(event: RunMetricEvent, agentId: string): void {
    this.#runs[event].inc({ agent: this.#agent(agentId) });
  }

  /** The Prometheus text of every metric of the registry. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** The agent label of `agentId`: itself when served, else `unknown`. */
  #agent(agentId: string): string {
    return this.#served === undefined || this.#served.has(agentId) ? agentId : UNKNOWN_AGENT_LABEL;
  }

  #listen<T>(name: string, handle: (message: T) => void): void {
    // A metric error must never reach the run that published (publish calls listeners inline).
    const listener = (message: unknown) => {
      try {
        handle(message as T);
      } catch {
        // ignored: a count lost is better than a run failed
      }
    };
    subscribe(name, listener);
    this.#listeners.push([name, listener]);
  }
}
