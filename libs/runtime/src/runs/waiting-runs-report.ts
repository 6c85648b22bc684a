/**
 * The fleet-wide waiting-run counts as a metric (`flotilla_runs_waiting{agent,kind}`), for the
 * worker and scheduler apps: read from Redis at scrape time, at most once per `cacheMs` (a
 * scrape storm cannot hammer Redis), within `timeoutMs` (a scrape during an outage reports the
 * last values), labelled by the fleet's own agent ids (those the process serves and those live
 * workers announce; any other id is `unknown`), and pruned against the records now and then.
 * No metrics library here: the apps pass their prom-client gauge, which fits {@link GaugeTarget}.
 */
import type { Redis } from 'ioredis';
import { boundedRequest } from '../config/bounded-request.js';
import { WAIT_KINDS } from '../gate/waiting-for.js';
import { WorkerRegistry } from '../registry/worker-registry.js';
import { RedisRunRecords } from './redis-run-records.js';

/** The label of runs of an agent id that is not the fleet's. */
export const UNKNOWN_AGENT_LABEL = 'unknown';

/** The Prometheus help text of `flotilla_runs_waiting`, the same from every process. */
export const RUNS_WAITING_HELP =
  'Runs waiting at the gate fleet-wide (queued, holding no worker slot), by agent and waitingFor kind; the same value from every process: aggregate with max.';

/** One series of the gauge. */
export interface WaitingRunsSample {
  agent: string;
  kind: string;
  runs: number;
}

/** What {@link WaitingRunsReport.report} writes to (a prom-client `Gauge<'agent' | 'kind'>`). */
export interface GaugeTarget {
  set(labels: { agent: string; kind: string }, value: number): void;
}

/** Options of {@link WaitingRunsReport}. */
export interface WaitingRunsReportOptions {
  redis: Redis;
  prefix: string;
  /** Agent ids labelled by name even when no live worker announces them. @default none */
  servedAgents?: Iterable<string>;
  /** Reads are reused this long. @default 1000 */
  cacheMs?: number;
  /** A read gives up after this long (the last values are reported). @default 1000 */
  timeoutMs?: number;
  /** Entries are checked against their records at most this often. @default 10000 */
  pruneEveryMs?: number;
}

export class WaitingRunsReport {
  readonly #records: RedisRunRecords;
  readonly #registry: WorkerRegistry;
  readonly #redis: Redis;
  readonly #served: ReadonlySet<string>;
  readonly #cacheMs: number;
  readonly #timeoutMs: number;
  readonly #pruneEveryMs: number;
  #cached: { at: number; samples: Promise<WaitingRunsSample[]> } | undefined;
  #last: WaitingRunsSample[] = [];
  #prunedAt = 0;
  /** Every series ever reported: one that empties reads 0, it does not vanish. */
  readonly #seen = new Map<string, { agent: string; kind: string }>();

  constructor(options: WaitingRunsReportOptions) {
    this.#redis = options.redis;
    this.#records = new RedisRunRecords({ redis: options.redis, prefix: options.prefix });
    this.#registry = new WorkerRegistry(options.redis, options.prefix);
    this.#served = new Set(options.servedAgents ?? []);
    this.#cacheMs = options.cacheMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? 1000;
    this.#pruneEveryMs = options.pruneEveryMs ?? 10_000;
    for (const agent of this.#served) for (const kind of WAIT_KINDS) this.#remember(agent, kind);
  }

  /** The waiting runs by agent label and kind (the last values when Redis does not answer). */
  read(): Promise<WaitingRunsSample[]> {
    const now = Date.now();
    if (this.#cached && now - this.#cached.at < this.#cacheMs) return this.#cached.samples;
    const samples = this.#fetch().then(
      (fresh) => {
        this.#last = fresh;
        return fresh;
      },
      () => this.#last,
    );
    this.#cached = { at: now, samples };
    if (now - this.#prunedAt >= this.#pruneEveryMs) {
      this.#prunedAt = now;
      // Repairs only; a failed prune is tried again next time.
      this.#records.waiting.prune({ currentWait: this.#records.currentWait }).catch(() => undefined);
    }
    return samples;
  }

  /** Sets `gauge` to {@link read}'s values, and 0 for every series reported before that emptied. */
  async report(gauge: GaugeTarget): Promise<void> {
    const samples = await this.read();
    const current = new Map(samples.map((sample) => [seriesKey(sample.agent, sample.kind), sample]));
    for (const sample of samples) this.#remember(sample.agent, sample.kind);
    for (const [key, labels] of this.#seen) gauge.set(labels, current.get(key)?.runs ?? 0);
  }

  async #fetch(): Promise<WaitingRunsSample[]> {
    const bound = { redis: this.#redis, timeoutMs: this.#timeoutMs };
    const [counts, workers] = await boundedRequest(bound, () =>
      Promise.all([this.#records.waiting.counts(), this.#registry.list()]),
    );
    const fleet = new Set([...this.#served, ...workers.flatMap((worker) => worker.agents)]);
    const folded = new Map<string, WaitingRunsSample>();
    for (const count of counts) {
      const agent = fleet.has(count.agentId) ? count.agentId : UNKNOWN_AGENT_LABEL;
      const key = seriesKey(agent, count.kind);
      const sample = folded.get(key) ?? { agent, kind: count.kind, runs: 0 };
      sample.runs += count.runs;
      folded.set(key, sample);
    }
    return [...folded.values()];
  }

  #remember(agent: string, kind: string): void {
    this.#seen.set(seriesKey(agent, kind), { agent, kind });
  }
}

function seriesKey(agent: string, kind: string): string {
  return JSON.stringify([agent, kind]);
}
