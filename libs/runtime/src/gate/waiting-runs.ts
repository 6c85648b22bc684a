/**
 * The fleet-wide count of runs waiting at the gate, by `waitingFor` kind and agent, kept by the
 * gate itself: every write that sets or clears a record's `waitingFor` (`RedisRunRecords`:
 * `park`, `markUnserved`, `suspend`, `start`, `finish`) is followed by {@link WaitingRuns.enter} or
 * {@link WaitingRuns.leave}. New kinds need nothing here: a kind is a label from `WAIT_KINDS`.
 *
 * Membership, not counters: each waiting run is one entry (`waitingRunsKeys`, own tag
 * `{waiting}`), and the per-group counts change with the membership inside the same script, so
 * they cannot drift from it. The records are the truth and written first; the entries follow as
 * separate idempotent writes (never inside a `{r:…}` script: Redis Cluster). A crash between the
 * two, or a race between a park and a start, can leave an entry whose record no longer waits:
 * {@link WaitingRuns.prune} checks the oldest entries against their records and removes those,
 * fenced by their entry time so an entry written again meanwhile stays.
 */
import type { Redis } from 'ioredis';
import { waitingRunsKeys } from '../keys.js';
import { enterWaitingScript } from './lua/enter-waiting-3.lua.js';
import { leaveWaitingScript } from './lua/leave-waiting-3.lua.js';
import { type UNKNOWN_WAIT_KIND, type WaitKind, waitKindLabel } from './waiting-for.js';

/** How many runs wait for one kind of thing, of one agent, fleet-wide. */
export interface WaitingRunCount {
  /** A kind of `WAIT_KINDS`, or `unknown`. */
  kind: WaitKind | typeof UNKNOWN_WAIT_KIND;
  /** The agent id stored on the waiting runs' records (not bounded to the fleet's agents). */
  agentId: string;
  runs: number;
}

/** What a run's record says it waits for now (`undefined`: it does not wait, or has no record). */
export type CurrentWait = (runId: string) => Promise<{ kind: string; agentId: string } | undefined>;

/** Options of {@link WaitingRuns.prune}. */
export interface PruneOptions {
  /** Reads what a run's record says it waits for. */
  currentWait: CurrentWait;
  /** Entries younger than this are left alone (their record write may still be in flight). @default 30000 */
  minAgeMs?: number;
  /** The most entries checked in one call, in entry-time order. @default 100 */
  batch?: number;
}

export class WaitingRuns {
  readonly #redis: Redis;
  readonly #keys: ReturnType<typeof waitingRunsKeys>;
  /**
   * Where {@link prune} goes on (`undefined`: from the oldest): the entry time of the last entry it
   * checked and how many entries kept at that very time it has already checked. Runs entering in
   * the same millisecond share a score (Redis orders them by id), so an exclusive `(since` would
   * skip all but the first of them on every lap.
   */
  #pruneCursor: { since: string; checked: number } | undefined;

  constructor(options: { redis: Redis; prefix: string }) {
    this.#redis = options.redis;
    this.#keys = waitingRunsKeys(options.prefix);
  }

  /** `runId` (of `agentId`) now waits for `kind`; it leaves any other group. Idempotent. */
  async enter(runId: string, wait: { kind: string; agentId: string }): Promise<void> {
    const group = JSON.stringify([waitKindLabel(wait.kind), wait.agentId]);
    await enterWaitingScript.run(this.#redis, this.#scriptKeys(), [runId, group, Date.now()]);
  }

  /** `runId` waits for nothing any more. Idempotent. */
  async leave(runId: string): Promise<void> {
    await leaveWaitingScript.run(this.#redis, this.#scriptKeys(), [runId, '']);
  }

  /** The waiting runs by kind and agent (groups with none are left out). One read. */
  async counts(): Promise<WaitingRunCount[]> {
    const fields = await this.#redis.hgetall(this.#keys.counts);
    const counts: WaitingRunCount[] = [];
    for (const [group, value] of Object.entries(fields)) {
      const parsed = parseGroup(group);
      const runs = Number(value);
      if (parsed && Number.isSafeInteger(runs) && runs > 0) counts.push({ ...parsed, runs });
    }
    return counts;
  }

  /**
   * Removes the entries, among the next `batch` by entry time, whose record no longer says the
   * run waits for that kind (or is gone). Each call goes on after the last entry the previous
   * one checked, back to the oldest once it reached the end, so stale entries behind many
   * long waits are reached too. Returns how many it removed.
   */
  async prune(options: PruneOptions): Promise<number> {
    const cutoff = Date.now() - (options.minAgeMs ?? 30_000);
    const batch = options.batch ?? 100;
    const cursor = this.#pruneCursor;
    const page = await this.#redis.zrangebyscore(
      this.#keys.since,
      cursor?.since ?? '-inf',
      cutoff,
      'WITHSCORES',
      'LIMIT',
      cursor?.checked ?? 0,
      batch,
    );
    const entries: { runId: string; since: string }[] = [];
    for (let at = 0; at + 1 < page.length; at += 2)
      entries.push({ runId: page[at] as string, since: page[at + 1] as string });
    this.#pruneCursor = undefined;
    if (entries.length === 0) return 0;
    const groups = await this.#redis.hmget(this.#keys.runs, ...entries.map((entry) => entry.runId));
    const current = await Promise.all(entries.map((entry) => options.currentWait(entry.runId)));
    let removed = 0;
    const last = entries.at(-1)?.since;
    // Entries kept at the last entry time: the next call skips them (removed ones are gone).
    let keptAtLast = cursor !== undefined && cursor.since === last ? cursor.checked : 0;
    for (const [at, { runId, since }] of entries.entries()) {
      const group = groups[at];
      const entry = group == null ? undefined : parseGroup(group);
      const wait = current[at];
      const stillWaits =
        entry !== undefined &&
        wait !== undefined &&
        waitKindLabel(wait.kind) === entry.kind &&
        wait.agentId === entry.agentId;
      const left =
        !stillWaits && Number(await leaveWaitingScript.run(this.#redis, this.#scriptKeys(), [runId, since]));
      removed += Number(left);
      if (!left && since === last) keptAtLast += 1;
    }
    if (entries.length === batch && last !== undefined)
      this.#pruneCursor = { since: last, checked: keptAtLast };
    return removed;
  }

  #scriptKeys(): string[] {
    return [this.#keys.runs, this.#keys.since, this.#keys.counts];
  }
}

/** A stored group (`[kind, agentId]` JSON); `undefined` when it is not one (never written by us). */
function parseGroup(group: string): Omit<WaitingRunCount, 'runs'> | undefined {
  try {
    const parsed: unknown = JSON.parse(group);
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string')
      return undefined;
    return { kind: waitKindLabel(parsed[0]), agentId: parsed[1] };
  } catch {
    return undefined;
  }
}
