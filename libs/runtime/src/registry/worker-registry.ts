/**
 * The one worker registry (ARCHITECTURE.md §9): every live worker announces itself in one place
 * with a heartbeat; an announcement not renewed within its TTL is gone, so a killed worker
 * disappears within `WORKER_HEARTBEAT_TTL_MS`. Routing ("no live worker serves X"), the client's
 * `listWorkers()`, `GET /workers` and `flotilla workers` all read it.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { workerRegistryKeys } from '../keys.js';
import { announceWorkerScript, listWorkersScript } from './worker-registry-scripts.lua.js';

/** How often a worker renews its announcement. */
export const WORKER_HEARTBEAT_MS = 1000;
/** How long an announcement lives without a renewal. */
export const WORKER_HEARTBEAT_TTL_MS = 5000;
/** Most workers one listing returns (bounds the reply). */
export const MAX_LISTED_WORKERS = 1000;

/** What a live worker says about itself. */
export interface WorkerInfo {
  /** Unique per worker process start. */
  workerId: string;
  host: string;
  pid: number;
  /** The agents it serves (the queues it consumes). */
  agents: string[];
  /** `FLOTILLA_BUILD_ID`, when set: the build of the code it runs. */
  buildId?: string;
  /** `pinned` when it pins the runs it takes first to its build (`FLOTILLA_VERSIONING`); absent: unpinned. */
  versioning?: 'pinned';
  /** With `versioning: 'pinned'`: the other builds whose pinned runs it resumes (`FLOTILLA_COMPATIBLE_WITH`). */
  compatibleWith?: string[];
  /**
   * With `versioning: 'pinned'`: the agents whose new runs it leaves to a newer build (it only
   * resumes the runs pinned to its build), during a rolling deploy.
   */
  draining?: string[];
  /** Runs it executes at once, at most. */
  concurrency: number;
  /** Runs it executes now (at its latest heartbeat). */
  activeRuns: number;
  /** Epoch ms. */
  startedAt: number;
  /** Its latest heartbeat, epoch ms (Redis time). */
  heartbeatAt: number;
  /** When it drops out of the registry unless it beats again, epoch ms (Redis time). */
  expiresAt: number;
}

/** The announcement as stored (the registry is a boundary: it is read back through this). */
const announcementSchema = z.object({
  workerId: z.string().max(200),
  host: z.string().max(255),
  pid: z.int().nonnegative(),
  agents: z.array(z.string().max(200)).max(10_000),
  buildId: z.string().max(200).optional(),
  versioning: z.literal('pinned').optional(),
  compatibleWith: z.array(z.string().max(200)).max(100).optional(),
  draining: z.array(z.string().max(200)).max(10_000).optional(),
  concurrency: z.int().positive(),
  activeRuns: z.int().nonnegative(),
  startedAt: z.number(),
  ttlMs: z.int().positive(),
});

export type WorkerAnnouncement = z.infer<typeof announcementSchema>;

export class WorkerRegistry {
  readonly #redis: Redis;
  readonly #keys: ReturnType<typeof workerRegistryKeys>;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#keys = workerRegistryKeys(prefix);
  }

  /**
   * Announces (or renews) a worker; a worker that pins runs also keeps its build among the
   * {@link pinnedBuilds} (a separate write: a repeat of it is harmless).
   */
  async announce(announcement: WorkerAnnouncement): Promise<void> {
    await announceWorkerScript.run(
      this.#redis,
      [this.#keys.workers, this.#keys.expiries],
      [announcement.workerId, JSON.stringify(announcement), announcement.ttlMs],
    );
    if (announcement.versioning === 'pinned' && announcement.buildId !== undefined)
      await this.#redis.hset(this.#keys.builds, announcement.buildId, JSON.stringify(announcement.agents));
  }

  /**
   * The builds runs were pinned to (by a worker announced with `versioning: 'pinned'`) that were
   * not forgotten yet, with the agents their workers served; at most {@link MAX_LISTED_WORKERS}.
   */
  async pinnedBuilds(): Promise<Map<string, string[]>> {
    const builds = new Map<string, string[]>();
    let cursor = '0';
    do {
      const [next, entries] = await this.#redis.hscan(this.#keys.builds, cursor, 'COUNT', 100);
      cursor = next;
      for (let index = 0; index + 1 < entries.length; index += 2) {
        const agents = parseAgents(entries[index + 1] ?? '');
        if (agents) builds.set(entries[index] ?? '', agents);
      }
    } while (cursor !== '0' && builds.size < MAX_LISTED_WORKERS);
    return builds;
  }

  /** Forgets a build none of whose runs is left (see {@link pinnedBuilds}); it comes back when announced again. */
  async forgetBuild(buildId: string): Promise<void> {
    await this.#redis.hdel(this.#keys.builds, buildId);
  }

  /** Removes a worker that stops (idempotent). */
  async withdraw(workerId: string): Promise<void> {
    await this.#redis.multi().hdel(this.#keys.workers, workerId).zrem(this.#keys.expiries, workerId).exec();
  }

  /** The live workers, by id. */
  async list(): Promise<WorkerInfo[]> {
    const reply = (await listWorkersScript.run(
      this.#redis,
      [this.#keys.workers, this.#keys.expiries],
      [MAX_LISTED_WORKERS],
    )) as (string | number)[];
    const workers: WorkerInfo[] = [];
    for (let index = 1; index + 2 < reply.length; index += 3) {
      const expiresAt = Number(reply[index + 1]);
      const parsed = parseAnnouncement(String(reply[index + 2]));
      if (!parsed) continue;
      const { ttlMs, ...info } = parsed;
      workers.push({ ...info, heartbeatAt: expiresAt - ttlMs, expiresAt });
    }
    return workers.sort((a, b) => a.workerId.localeCompare(b.workerId));
  }
}

const agentListSchema = announcementSchema.shape.agents;

/** A stored agent list of {@link WorkerRegistry.pinnedBuilds}, or `undefined` when it is not one. */
function parseAgents(json: string): string[] | undefined {
  try {
    const parsed = agentListSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A stored announcement, or `undefined` when it is not one (skipped, never trusted). */
function parseAnnouncement(json: string): WorkerAnnouncement | undefined {
  try {
    const parsed = announcementSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether some live worker serves an agent, read from the registry at most once per
 * {@link WORKER_HEARTBEAT_MS} (a producer asks it on every submit).
 */
export class ServedAgents {
  readonly #workers: LiveWorkers;

  constructor(registry: WorkerRegistry) {
    this.#workers = new LiveWorkers(registry);
  }

  async serves(agentId: string): Promise<boolean> {
    return (await this.#workers.list()).some((worker) => worker.agents.includes(agentId));
  }
}

/**
 * Whether a live worker can resume a run of `agentId` pinned to `build`: it serves the agent, pins
 * runs, and runs that build or lists it in `compatibleWith`.
 */
export function resumesPinned(worker: WorkerInfo, agentId: string, build: string): boolean {
  return (
    worker.versioning === 'pinned' &&
    worker.agents.includes(agentId) &&
    (worker.buildId === build || (worker.compatibleWith?.includes(build) ?? false))
  );
}

/**
 * The live workers, read from the registry at most once per {@link WORKER_HEARTBEAT_MS} (a
 * client that reads many records asks on every read); a failed read is not kept.
 */
export class LiveWorkers {
  readonly #registry: WorkerRegistry;
  #cached: { at: number; workers: Promise<WorkerInfo[]> } | undefined;

  constructor(registry: WorkerRegistry) {
    this.#registry = registry;
  }

  list(): Promise<WorkerInfo[]> {
    const now = Date.now();
    if (!this.#cached || now - this.#cached.at >= WORKER_HEARTBEAT_MS) {
      const workers = this.#registry.list();
      this.#cached = { at: now, workers };
      workers.catch(() => {
        if (this.#cached?.workers === workers) this.#cached = undefined;
      });
    }
    return this.#cached.workers;
  }
}

/**
 * The build new runs of `agentId` go to (worker versioning): of the builds whose live pinned
 * workers serve the agent, the one deployed last — its earliest live worker started latest (ties:
 * the greater build id), so restarting one old worker does not make its build current again.
 * `undefined` when no pinned worker with a build serves the agent.
 */
export function newestBuild(workers: readonly WorkerInfo[], agentId: string): string | undefined {
  const firstSeen = new Map<string, number>();
  for (const worker of workers) {
    const build = worker.buildId;
    if (build === undefined || worker.versioning !== 'pinned' || !worker.agents.includes(agentId)) continue;
    firstSeen.set(build, Math.min(firstSeen.get(build) ?? Number.POSITIVE_INFINITY, worker.startedAt));
  }
  let newest: { build: string; at: number } | undefined;
  for (const [build, at] of firstSeen) {
    if (!newest || at > newest.at || (at === newest.at && build > newest.build)) newest = { build, at };
  }
  return newest?.build;
}
