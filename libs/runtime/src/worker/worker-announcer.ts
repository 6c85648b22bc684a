import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import {
  WORKER_HEARTBEAT_MS,
  WORKER_HEARTBEAT_TTL_MS,
  type WorkerAnnouncement,
  type WorkerRegistry,
} from '../registry/worker-registry.js';

/** How long `close()` waits to withdraw (Redis down): the announcement expires by itself. */
const WITHDRAW_TIMEOUT_MS = 2000;

/** What a worker tells the registry about itself, besides its live count of active runs. */
export interface AnnouncedWorker {
  agents: string[];
  buildId: string | undefined;
  /**
   * Set when the worker pins runs to its build: the other builds it resumes pinned runs of, and
   * the agents whose new runs it leaves to a newer build now.
   */
  pinned?: { compatibleWith: readonly string[]; draining: () => string[] } | undefined;
  concurrency: number;
  activeRuns: () => number;
}

/**
 * Keeps one worker's announcement in the registry: at start, then every
 * {@link WORKER_HEARTBEAT_MS}; withdrawn at close. A failed heartbeat is logged once per outage
 * and retried at the next beat (the announcement lives {@link WORKER_HEARTBEAT_TTL_MS}).
 */
export class WorkerAnnouncer {
  readonly workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  readonly #registry: WorkerRegistry;
  readonly #worker: AnnouncedWorker;
  readonly #logger: Logger;
  readonly #startedAt = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #failing = false;
  #closed = false;

  constructor(registry: WorkerRegistry, worker: AnnouncedWorker, logger: Logger) {
    this.#registry = registry;
    this.#worker = worker;
    this.#logger = logger;
  }

  /** Announces now and starts the heartbeat; resolves once the first announcement is stored. */
  async start(): Promise<void> {
    if (this.#closed) return;
    this.#timer = setInterval(() => void this.#beat(), WORKER_HEARTBEAT_MS);
    this.#timer.unref();
    await this.#registry.announce(this.#announcement());
  }

  /** Stops the heartbeat and withdraws; waits for Redis at most WITHDRAW_TIMEOUT_MS (it expires anyway). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    const withdrawn = this.#registry
      .withdraw(this.workerId)
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'worker not withdrawn from the registry'));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WITHDRAW_TIMEOUT_MS);
    });
    await Promise.race([withdrawn, late]);
    clearTimeout(timer);
  }

  async #beat(): Promise<void> {
    try {
      await this.#registry.announce(this.#announcement());
      if (this.#failing) this.#logger.info('worker heartbeat stored again');
      this.#failing = false;
    } catch (error) {
      if (!this.#failing && !this.#closed) this.#logger.warn({ err: error }, 'worker heartbeat not stored');
      this.#failing = true;
    }
  }

  #announcement(): WorkerAnnouncement {
    const { agents, buildId, concurrency } = this.#worker;
    const announcement: WorkerAnnouncement = {
      workerId: this.workerId,
      host: hostname(),
      pid: process.pid,
      agents,
      concurrency,
      activeRuns: this.#worker.activeRuns(),
      startedAt: this.#startedAt,
      ttlMs: WORKER_HEARTBEAT_TTL_MS,
    };
    if (buildId !== undefined) announcement.buildId = buildId;
    const { pinned } = this.#worker;
    if (pinned) {
      announcement.versioning = 'pinned';
      if (pinned.compatibleWith.length > 0) announcement.compatibleWith = [...pinned.compatibleWith];
      const draining = pinned.draining();
      if (draining.length > 0) announcement.draining = draining;
    }
    return announcement;
  }
}
