/**
 * Concurrency caps (`createAgent({ concurrency: { limit, key? } })`), the `concurrency` kind of
 * the waiting gate. Under the cap's own hash tag (`concurrencyCapKeys`): the runs holding a place
 * (each a lease in Redis time, renewed while the run executes: a dead worker's place lapses by
 * itself) and the runs parked until one is free. A run that gives its place back wakes the
 * oldest waiters; a parked run also looks again by itself after its re-check delay.
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { concurrencyCapKeys } from '../keys.js';
import { enterCapScript } from './lua/enter-cap-2.lua.js';
import { leaveCapScript } from './lua/leave-cap-2.lua.js';
import { renewCapScript } from './lua/renew-cap-1.lua.js';

/** One cap: an agent, the key its runs are capped by, and its limit. */
export interface Cap {
  agentId: string;
  /** The cap key ('' when the agent has one cap for all its runs). */
  key: string;
  limit: number;
}

export interface ConcurrencyGateOptions {
  redis: Redis;
  prefix: string;
  /** The job of a run (in its agent's queue): `leave` wakes parked runs' delayed jobs. */
  findJob: (runId: string) => Promise<Job | undefined>;
  /** How long a place is held without renewal (a dead worker's place lapses after it). */
  leaseMs: number;
}

export class ConcurrencyGate {
  readonly #options: ConcurrencyGateOptions;

  constructor(options: ConcurrencyGateOptions) {
    this.#options = options;
  }

  get leaseMs(): number {
    return this.#options.leaseMs;
  }

  /** Takes a place for `runId`, or records it among the waiters. */
  async enter(cap: Cap, runId: string): Promise<{ entered: boolean; holders: number }> {
    const keys = this.#keys(cap);
    const [code, holders] = (await enterCapScript.run(
      this.#options.redis,
      [keys.holders, keys.waiters],
      [runId, cap.limit, this.#options.leaseMs],
    )) as [number, number];
    return { entered: code === 1, holders: Number(holders) };
  }

  /** Renews the run's place; `false` when it holds none (its lease lapsed). */
  async renew(cap: Cap, runId: string): Promise<boolean> {
    const reply = await renewCapScript.run(
      this.#options.redis,
      [this.#keys(cap).holders],
      [runId, this.#options.leaseMs],
    );
    return reply === 1;
  }

  /** Gives the run's place back (or leaves the waiters; idempotent) and wakes the runs that may go now. */
  async leave(cap: Cap, runId: string): Promise<void> {
    const keys = this.#keys(cap);
    const waiting = (await leaveCapScript.run(
      this.#options.redis,
      [keys.holders, keys.waiters],
      [runId, cap.limit],
    )) as string[];
    let free = cap.limit;
    for (const waiter of waiting) {
      if (free <= 0) break;
      if (await this.#wake(waiter)) free--;
      // Its job is gone or not parked any more (ended, cancelled): it waits no longer.
      else await this.#options.redis.zrem(keys.waiters, waiter);
    }
  }

  /** Whether a place is free now (a parked run checks it once parked, against a lost wake-up). */
  async hasRoom(cap: Cap): Promise<boolean> {
    const live = await this.#options.redis.zcount(this.#keys(cap).holders, `(${Date.now()}`, '+inf');
    return live < cap.limit;
  }

  /** Moves a parked run's job from delayed to wait; `false` when it has no delayed job. */
  async wakeRun(runId: string): Promise<boolean> {
    return this.#wake(runId);
  }

  async #wake(runId: string): Promise<boolean> {
    const job = await this.#options.findJob(runId);
    if (!job || !(await job.isDelayed())) return false;
    await job.promote().catch(() => undefined);
    return true;
  }

  #keys(cap: Cap) {
    return concurrencyCapKeys(this.#options.prefix, cap.agentId, cap.key);
  }
}
