/**
 * Schedules on BullMQ's job schedulers (`upsertJobScheduler`), not a timer of our own. Each
 * schedule is one job scheduler in its agent's queue (id = the stored schedule id), producing a
 * `~schedule` job per firing that a worker serving the agent turns into a normal run
 * (`worker/fire-schedule.ts`). The tenant's schedule list (`scheduleIndexKey`) finds them across
 * agent queues; it is written after the scheduler, so a crash between the two is repaired by
 * saving the schedule again.
 *
 * Missed firings (BullMQ's behaviour): a scheduler stores only its next firing's job, and adds
 * the one after when a worker starts that job. While no worker serves the agent, that one
 * firing waits in the queue and runs late when a worker comes; the firings due meanwhile are
 * not made up, the next one is the first due after that.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { AgentQueues } from '../jobs/agent-queues.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import { qualifyId, unqualifyId } from '../jobs/tenant-ids.js';
import { scheduleIndexKey } from '../keys.js';
import type { ServedAgents } from '../registry/worker-registry.js';
import { InvalidScheduleError } from './invalid-schedule-error.js';
import { SCHEDULE_JOB_NAME, type ScheduleJobData } from './schedule-job.js';
import { type ScheduleDefinition, scheduleRequestSchema } from './schedule-request.js';

/** A saved schedule, as `client.listSchedules()` shows it. */
export interface ScheduleInfo extends ScheduleDefinition {
  /** When it fires next (epoch ms); absent when BullMQ has no next firing (e.g. a cron with no future time). */
  nextRunAt?: number;
  /**
   * Whether a live worker serves its agent. While none does, its firing waits in the agent's
   * queue (one at most: BullMQ does not pile them up) and the schedule shows `served: false`.
   */
  served: boolean;
  /** When the schedule was last saved (epoch ms). */
  updatedAt: number;
}

const storedScheduleSchema = scheduleRequestSchema.extend({ updatedAt: z.number() });

export interface RedisSchedulesOptions {
  redis: Redis;
  prefix: string;
  queues: AgentQueues;
  served: ServedAgents;
}

export class RedisSchedules {
  readonly #options: RedisSchedulesOptions;

  constructor(options: RedisSchedulesOptions) {
    this.#options = options;
  }

  /**
   * Creates or replaces the schedule `schedule.id` of `tenant` (checked schedule, caller's ids).
   * @throws InvalidScheduleError when BullMQ refuses the cron pattern
   */
  async upsert(tenant: string | undefined, schedule: ScheduleDefinition): Promise<ScheduleInfo> {
    const { redis, prefix, queues } = this.#options;
    const storedId = qualifyId(tenant, schedule.id);
    const previous = await this.#read(tenant, schedule.id);
    // Moved to another agent: the old agent's scheduler must not fire it any more.
    if (previous && previous.agentId !== schedule.agentId)
      await queues.queueFor(previous.agentId).removeJobScheduler(storedId);
    const data: ScheduleJobData = {
      scheduleId: storedId,
      agentId: schedule.agentId,
      input: JSON.stringify(schedule.input ?? null),
    };
    if (schedule.conversationId !== undefined)
      data.conversationId = qualifyId(tenant, schedule.conversationId);
    if (tenant !== undefined) data.tenant = tenant;
    const repeat = {
      ...(schedule.cron !== undefined && { pattern: schedule.cron }),
      ...(schedule.everyMs !== undefined && { every: schedule.everyMs }),
      ...(schedule.startAt !== undefined && { startDate: schedule.startAt }),
      ...(schedule.timezone !== undefined && { tz: schedule.timezone }),
    };
    try {
      await queues.queueFor(schedule.agentId).upsertJobScheduler(storedId, repeat, {
        name: SCHEDULE_JOB_NAME,
        data,
        opts: { ...ENDED_JOB_RETENTION },
      });
    } catch (error) {
      if (schedule.cron !== undefined && isCronError(error))
        throw new InvalidScheduleError(
          'cron',
          `"${schedule.cron}" is not a valid cron pattern (${messageOf(error)})`,
        );
      throw error;
    }
    const stored = { ...schedule, updatedAt: Date.now() };
    await redis.hset(scheduleIndexKey(prefix, tenant), storedId, JSON.stringify(stored));
    return this.#describe(tenant, stored);
  }

  /** The schedules of `tenant`, by id. */
  async list(tenant: string | undefined): Promise<ScheduleInfo[]> {
    const fields = await this.#options.redis.hgetall(scheduleIndexKey(this.#options.prefix, tenant));
    const schedules = Object.entries(fields)
      .map(([storedId, text]) => parseStored(unqualifyId(storedId), text))
      .filter((schedule) => schedule !== undefined)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return Promise.all(schedules.map((schedule) => this.#describe(tenant, schedule)));
  }

  /** The schedule `id` of `tenant`, or `undefined`. */
  async get(tenant: string | undefined, id: string): Promise<ScheduleInfo | undefined> {
    const stored = await this.#read(tenant, id);
    return stored && this.#describe(tenant, stored);
  }

  /** Removes the schedule (no more firings; runs already fired go on). `false` when there was none. */
  async remove(tenant: string | undefined, id: string): Promise<boolean> {
    const { redis, prefix, queues } = this.#options;
    const storedId = qualifyId(tenant, id);
    const stored = await this.#read(tenant, id);
    if (stored) await queues.queueFor(stored.agentId).removeJobScheduler(storedId);
    return (await redis.hdel(scheduleIndexKey(prefix, tenant), storedId)) === 1;
  }

  async #read(tenant: string | undefined, id: string) {
    const { redis, prefix } = this.#options;
    const text = await redis.hget(scheduleIndexKey(prefix, tenant), qualifyId(tenant, id));
    return text === null ? undefined : parseStored(id, text);
  }

  async #describe(
    tenant: string | undefined,
    stored: ScheduleDefinition & { updatedAt: number },
  ): Promise<ScheduleInfo> {
    const { queues, served } = this.#options;
    const [scheduler, isServed] = await Promise.all([
      queues.queueFor(stored.agentId).getJobScheduler(qualifyId(tenant, stored.id)),
      served.serves(stored.agentId),
    ]);
    const info: ScheduleInfo = { ...stored, served: isServed };
    if (typeof scheduler?.next === 'number') info.nextRunAt = scheduler.next;
    return info;
  }
}

/** A stored schedule, read back (the list is a boundary); `undefined` when it does not parse. */
function parseStored(id: string, text: string) {
  try {
    const parsed = storedScheduleSchema.safeParse({ ...JSON.parse(text), id });
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isCronError(error: unknown): boolean {
  return error instanceof Error && !/ECONN|READONLY|NOSCRIPT|Connection/i.test(error.message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
}
