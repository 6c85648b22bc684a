/**
 * The fleet-wide waiting-run counts as a metric (`flotilla_runs_waiting{agent,kind}`), for the
 * worker and scheduler apps: read from Redis at scrape time, at most once per `cacheMs` (a
 * scrape storm cannot hammer Redis), within `timeoutMs` (a scrape during an outage reports the
 * last values), labelled by the fleet's own agent ids (those the process serves and those live
 * workers announce; any other id is `unknown`), and pruned against the records now and then.
 * Runs of kind `build` (pinned to a build no live worker can resume, worker versioning) are not
 * kept by the gate: they are the jobs ready or waiting for children in those builds' queues.
 * No metrics library here: the apps pass their prom-client gauge, which fits {@link GaugeTarget}.
 */
import type { JobType } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { boundedRequest } from '../config/bounded-request.js';
import { WAIT_KINDS } from '../gate/waiting-for.js';
import { AgentQueues } from '../jobs/agent-queues.js';
import { resumesPinned, type WorkerInfo, WorkerRegistry } from '../registry/worker-registry.js';
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
  /** `FLOTILLA_QUEUE`: the first part of the agent queues' names (build queues are counted). @default 'agents' */
  queueName?: string;
}

/**
 * The job states of a build queue whose runs wait for their build when no live worker can resume
 * them: ready to run, or parents whose children will hand them back there (like `getRun`'s
 * `waitingFor: build`); a delayed job (parked on a durable wait) counts for what it waits for.
 */
const BUILD_WAIT_STATES: readonly JobType[] = ['waiting', 'prioritized', 'waiting-children'];
/** Every state a job of a build still being drained can be in: a build with none of them is forgotten. */
const BUILD_LIVE_STATES: readonly JobType[] = [...BUILD_WAIT_STATES, 'delayed', 'active'];

export class WaitingRunsReport {
  readonly #records: RedisRunRecords;
  readonly #registry: WorkerRegistry;
  readonly #redis: Redis;
  readonly #served: ReadonlySet<string>;
  readonly #cacheMs: number;
  readonly #timeoutMs: number;
  readonly #pruneEveryMs: number;
  readonly #queues: AgentQueues;
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
    this.#queues = new AgentQueues({
      connection: options.redis,
      prefix: options.prefix,
      queueName: options.queueName ?? 'agents',
      logger: pino({ level: 'silent' }),
      role: 'waiting-runs-report',
    });
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

  /** Closes the queues the build waits are counted in. */
  async close(): Promise<void> {
    await this.#queues.close();
  }

  async #fetch(): Promise<WaitingRunsSample[]> {
    const bound = { redis: this.#redis, timeoutMs: this.#timeoutMs };
    const [stamped, workers] = await boundedRequest(bound, () =>
      Promise.all([this.#records.waiting.counts(), this.#registry.list()]),
    );
    const counts = [...stamped, ...(await boundedRequest(bound, () => this.#buildWaits(workers)))];
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

  /**
   * Runs pinned to a build no live worker can resume (worker versioning), by agent: the jobs
   * waiting in its build queues. A build with no live worker and no job left is forgotten.
   */
  async #buildWaits(
    workers: readonly WorkerInfo[],
  ): Promise<{ kind: 'build'; agentId: string; runs: number }[]> {
    const waits: { kind: 'build'; agentId: string; runs: number }[] = [];
    for (const [build, agents] of await this.#registry.pinnedBuilds()) {
      if (workers.some((worker) => worker.buildId === build)) {
        for (const agentId of agents) {
          if (workers.some((worker) => resumesPinned(worker, agentId, build))) continue;
          waits.push({ kind: 'build', agentId, runs: await this.#count(agentId, build, BUILD_WAIT_STATES) });
        }
        continue;
      }
      let left = 0;
      for (const agentId of agents) {
        const counts = await this.#queues.queueFor(agentId, build).getJobCounts(...BUILD_LIVE_STATES);
        left += sumOf(counts, BUILD_LIVE_STATES);
        if (!workers.some((worker) => resumesPinned(worker, agentId, build)))
          waits.push({ kind: 'build', agentId, runs: sumOf(counts, BUILD_WAIT_STATES) });
      }
      if (left === 0) await this.#registry.forgetBuild(build);
    }
    return waits.filter((wait) => wait.runs > 0);
  }

  async #count(agentId: string, build: string, states: readonly JobType[]): Promise<number> {
    return sumOf(await this.#queues.queueFor(agentId, build).getJobCounts(...states), states);
  }

  #remember(agent: string, kind: string): void {
    this.#seen.set(seriesKey(agent, kind), { agent, kind });
  }
}

function sumOf(counts: Record<string, number>, states: readonly string[]): number {
  return states.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
}

function seriesKey(agent: string, kind: string): string {
  return JSON.stringify([agent, kind]);
}
