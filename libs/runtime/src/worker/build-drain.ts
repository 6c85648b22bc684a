import type { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { type LiveWorkers, newestBuild, WORKER_HEARTBEAT_MS } from '../registry/worker-registry.js';

/**
 * Worker versioning's rolling deploy (`FLOTILLA_VERSIONING=pinned`): while a newer build serves
 * an agent (`newestBuild`, read from the worker registry every heartbeat), a worker of an older
 * build takes no new runs of it — it stops consuming the agent's queue and keeps consuming its
 * build queues, so the runs pinned to it drain while new runs start on the new build. It takes
 * new runs again when no newer build serves the agent (the new build's workers are gone: a
 * rollback).
 */
export class BuildDrain {
  readonly #buildId: string;
  readonly #workers: LiveWorkers;
  /** The BullMQ Worker of each agent's queue (new runs), by agent id. */
  readonly #newRuns: ReadonlyMap<string, Worker>;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #closed = false;
  #failing = false;
  /** The agents whose new runs this worker does not take now. */
  readonly #draining = new Set<string>();

  constructor(options: {
    buildId: string;
    workers: LiveWorkers;
    newRuns: ReadonlyMap<string, Worker>;
    logger: Logger;
  }) {
    this.#buildId = options.buildId;
    this.#workers = options.workers;
    this.#newRuns = options.newRuns;
    this.#logger = options.logger;
  }

  /** The agents whose new runs this worker leaves to a newer build now (announced in the registry). */
  get draining(): string[] {
    return [...this.#draining].sort();
  }

  /** Checks now, then every heartbeat. */
  start(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), WORKER_HEARTBEAT_MS);
    this.#timer.unref();
    this.#tick();
  }

  /** Stops checking (the worker closes its queues itself); waits for a check in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#checking;
  }

  /** Checks now (the heartbeat does it by itself); resolves when the check is over. */
  checkNow(): Promise<void> {
    this.#tick();
    return this.#checking ?? Promise.resolve();
  }

  #tick(): void {
    if (this.#checking || this.#closed) return;
    this.#checking = this.#check()
      .then(
        () => {
          if (this.#failing) this.#logger.info('build drain: worker registry read again');
          this.#failing = false;
        },
        (error: unknown) => {
          // Nothing changes while the registry cannot be read: a worker keeps doing what it did.
          if (!this.#failing) this.#logger.warn({ err: error }, 'build drain: worker registry not read');
          this.#failing = true;
        },
      )
      .finally(() => {
        this.#checking = undefined;
      });
  }

  async #check(): Promise<void> {
    const workers = await this.#workers.list();
    for (const [agentId, worker] of this.#newRuns) {
      if (this.#closed) return;
      const newest = newestBuild(workers, agentId);
      const takesNewRuns = newest === undefined || newest === this.#buildId;
      if (!takesNewRuns && !worker.isPaused()) {
        this.#logger.info(
          { agentId, buildId: this.#buildId, newerBuild: newest },
          'a newer build serves the agent: this worker takes no new runs of it, its pinned runs drain',
        );
        await worker.pause(true);
        this.#draining.add(agentId);
      } else if (takesNewRuns && worker.isPaused()) {
        this.#logger.info(
          { agentId, buildId: this.#buildId },
          'no newer build serves the agent: taking new runs again',
        );
        await worker.resume();
        this.#draining.delete(agentId);
      }
    }
  }
}
