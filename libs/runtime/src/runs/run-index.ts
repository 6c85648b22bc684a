/**
 * The run list indexes (`runIndexKeys`): one sorted set of every run of a tenant, and one per
 * agent, tree and conversation. Members are `<createdAt, 15 digits>:<stored run id>` with score
 * 0, so `ZREVRANGEBYLEX` walks them newest first and the last member read is an exact cursor.
 *
 * The indexes are hints, the records are the truth: an entry is only written after its record
 * exists, adding one again is a no-op (so any writer can repair a crash between record and
 * index), and a reader checks every entry against its record, skipping and removing entries
 * whose record has expired (retention). A stale attempt can at worst add an entry of a record
 * that exists, which is what the index should hold anyway.
 */
import type { Redis } from 'ioredis';
import { type RunIndexKeys, runIndexKeys } from '../keys.js';
import { TickBatch } from '../shared/tick-batch.js';
import { INDEX_RUNS_MAX_KEYS, indexRunsScript } from './lua/index-runs-1.lua.js';

/** What indexing a run needs to know (stored ids). */
export interface IndexedRun {
  runId: string;
  agentId: string;
  tenant?: string | undefined;
  createdAt: number;
  conversationId?: string | undefined;
  /** For a child run: the stored id of its tree's root. */
  rootRunId?: string | undefined;
  /** For a schedule's firing: the stored schedule id. */
  scheduleId?: string | undefined;
}

/** An add and the time it was made at (the upkeep's clock). */
interface TimedAdd {
  run: IndexedRun;
  now: number;
}

/** Digits of a created time in an index member: epoch ms fit in 15 until the year 33658. */
const TIME_DIGITS = 15;

/** The index member of a run created at `createdAt`. */
export function indexMember(createdAt: number, runId: string): string {
  return `${timeBound(createdAt)}:${runId}`;
}

/** The member prefix of a created time (a lexicographic bound). */
export function timeBound(createdAt: number): string {
  return String(Math.max(0, Math.trunc(createdAt))).padStart(TIME_DIGITS, '0');
}

/** The stored run id of an index member. */
export function runIdOfMember(member: string): string {
  return member.slice(TIME_DIGITS + 1);
}

/**
 * How often one process trims an index key and renews its TTL: the upkeep of a key shared by
 * every run (a tenant's `all`, an agent's) is not repeated per run.
 */
export const INDEX_UPKEEP_INTERVAL_MS = 60_000;
/** Keys whose last upkeep one process remembers (more: it forgets them all and starts over). */
const INDEX_UPKEEP_MEMORY = 10_000;

export class RedisRunIndex {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #keySeconds: number;
  /** When this process last trimmed and renewed each index key (epoch ms). */
  readonly #keptAt = new Map<string, number>();
  /** The adds of the current tick, written together. */
  readonly #adds = new TickBatch<TimedAdd, undefined>((adds) => this.#write(adds));

  /**
   * `keySeconds`: how long an entry is kept, and an index outlives its last write: the record
   * retention plus a day (the records of ended runs are gone by then). A run still unfinished
   * after that long drops out of the lists (its record stays; `getRun` reads it).
   */
  constructor(options: { redis: Redis; prefix: string; keySeconds: number }) {
    this.#redis = options.redis;
    this.#prefix = options.prefix;
    this.#keySeconds = options.keySeconds;
  }

  /**
   * Adds `run` to every index it belongs to; idempotent. One script call in one slot (the
   * tenant's tag, `index-runs-1`); the adds of one tick (a parent's children, created together)
   * go in one call per tenant. Each key also drops its entries older than `keySeconds` and
   * expires `keySeconds` after its last upkeep, so an index is bounded by the retention whether
   * or not anyone lists it. The upkeep (trim and TTL) of a key is done at most once per
   * {@link INDEX_UPKEEP_INTERVAL_MS} by one process, not on every add: an index keeps entries
   * that long past `keySeconds` at most, and a key may expire that long before `keySeconds`
   * after its last add, when its newest entries' records (kept a day less) are long gone.
   */
  add(run: IndexedRun, now = Date.now()): Promise<void> {
    return this.#adds.add({ run, now });
  }

  /**
   * The adds of one tick: one script call per tenant (index-runs-1), not a command per key:
   * plain commands cost a reply and a parse each, and an ioredis pipeline copies every script
   * defined on the connection (BullMQ defines ~60 on the client's; docs/performance.md, round 3).
   * Not an async function, and the work split in small functions: it runs once per tick of
   * submits, and a large async function cost the client's JIT more to compile than it ran
   * (docs/performance.md, round 8).
   */
  #write(adds: readonly TimedAdd[]): Promise<undefined[]> {
    const now = latestOf(adds);
    const oldest = `(${timeBound(now - this.#keySeconds * 1000)}`;
    const kept: string[] = [];
    const writes: Promise<unknown>[] = [];
    const upkeepDue = (key: string) => this.#upkeepDue(key, now, kept);
    for (const { members } of membersByTenant(this.#prefix, adds)) {
      for (const call of indexCalls(members, [oldest, this.#keySeconds], upkeepDue))
        writes.push(indexRunsScript.run(this.#redis, call.keys, call.args));
    }
    // Remembered before the replies, so adds of the next tick to one key do not repeat the
    // upkeep; forgotten again when a write fails, which leaves the upkeep to the next add.
    const before = this.#remember(kept, now);
    return allSettledOrFirstError(writes).then(
      () => adds.map(() => undefined),
      (error: unknown) => {
        this.#forget(kept, before, now);
        throw error;
      },
    );
  }

  /** Whether `key`'s upkeep is due at `now` (then it is listed in `kept`). */
  #upkeepDue(key: string, now: number, kept: string[]): boolean {
    const due = now - (this.#keptAt.get(key) ?? Number.NEGATIVE_INFINITY) >= INDEX_UPKEEP_INTERVAL_MS;
    if (due) kept.push(key);
    return due;
  }

  /** Notes the upkeep of `kept` at `now`; the times it replaces, for {@link #forget}. */
  #remember(kept: readonly string[], now: number): (number | undefined)[] {
    if (this.#keptAt.size + kept.length > INDEX_UPKEEP_MEMORY) this.#keptAt.clear();
    const before = kept.map((key) => this.#keptAt.get(key));
    for (const key of kept) this.#keptAt.set(key, now);
    return before;
  }

  /** Undoes {@link #remember} for the keys no later write kept up meanwhile. */
  #forget(kept: readonly string[], before: readonly (number | undefined)[], now: number): void {
    kept.forEach((key, i) => {
      if (this.#keptAt.get(key) !== now) return;
      const previous = before[i];
      if (previous === undefined) this.#keptAt.delete(key);
      else this.#keptAt.set(key, previous);
    });
  }

  /**
   * Up to `count` members of `key` below `before` (exclusive; `undefined` = from the newest)
   * and at or above `from` (a lexicographic bound, `'-'` for none), newest first.
   */
  async range(key: string, before: string | undefined, from: string, count: number): Promise<string[]> {
    return this.#redis.zrevrangebylex(
      key,
      before === undefined ? '+' : `(${before}`,
      from,
      'LIMIT',
      0,
      count,
    );
  }

  /** Drops entries whose record is gone (expired by retention) from `keys`. */
  async prune(keys: readonly string[], members: readonly string[]): Promise<void> {
    if (members.length === 0) return;
    await Promise.all(keys.map((key) => this.#redis.zrem(key, ...members)));
  }
}

/** The latest time of `adds` (the upkeep's clock for the batch). */
function latestOf(adds: readonly TimedAdd[]): number {
  let now = Number.NEGATIVE_INFINITY;
  for (const add of adds) if (add.now > now) now = add.now;
  return now;
}

/** The members of each index key the adds write, per tenant (one hash tag, one slot). */
function membersByTenant(prefix: string, adds: readonly TimedAdd[]): Iterable<TenantMembers> {
  const byTenant = new Map<string | undefined, TenantMembers>();
  for (const { run } of adds) {
    let tenant = byTenant.get(run.tenant);
    if (!tenant) {
      tenant = new TenantMembers(runIndexKeys(prefix, run.tenant));
      byTenant.set(run.tenant, tenant);
    }
    tenant.add(run);
  }
  return byTenant.values();
}

/**
 * One tenant's members of a batch. The adds of a tick are a parent's children as a rule (one
 * agent, one tree): the agent and tree keys of the run before are reused, not built per child
 * run (nothing kept beyond that: a client's submit is a batch of one).
 */
class TenantMembers {
  /** Index key → members, in the order the keys were first written. */
  readonly members = new Map<string, string[]>();
  readonly #keys: RunIndexKeys;
  #agent: { id: string; key: string } | undefined;
  #root: { id: string; key: string } | undefined;

  constructor(keys: RunIndexKeys) {
    this.#keys = keys;
  }

  /** Lists `run` under every index it belongs to. */
  add(run: IndexedRun): void {
    const member = indexMember(run.createdAt, run.runId);
    this.#list(this.#keys.all, member);
    if (this.#agent?.id !== run.agentId)
      this.#agent = { id: run.agentId, key: this.#keys.agent(run.agentId) };
    this.#list(this.#agent.key, member);
    // A tree's index holds its child runs; the root is its own record (no key per root run).
    if (run.rootRunId !== undefined) {
      if (this.#root?.id !== run.rootRunId)
        this.#root = { id: run.rootRunId, key: this.#keys.root(run.rootRunId) };
      this.#list(this.#root.key, member);
    }
    if (run.conversationId !== undefined) this.#list(this.#keys.conversation(run.conversationId), member);
    if (run.scheduleId !== undefined) this.#list(this.#keys.schedule(run.scheduleId), member);
  }

  #list(key: string, member: string): void {
    const listed = this.members.get(key);
    if (listed) listed.push(member);
    else this.members.set(key, [member]);
  }
}

/**
 * The index-runs-1 calls of one tenant's keys: `head` (the oldest bound and the TTL) then, per
 * key, whether its upkeep is due, its member count and its members; at most
 * {@link INDEX_RUNS_MAX_KEYS} keys per call.
 */
function indexCalls(
  members: Map<string, string[]>,
  head: readonly (string | number)[],
  upkeepDue: (key: string) => boolean,
): { keys: string[]; args: (string | number)[] }[] {
  const calls: { keys: string[]; args: (string | number)[] }[] = [];
  let call = { keys: [] as string[], args: [...head] };
  for (const [key, listed] of members) {
    call.keys.push(key);
    call.args.push(upkeepDue(key) ? '1' : '0', listed.length);
    for (const member of listed) call.args.push(member);
    if (call.keys.length < INDEX_RUNS_MAX_KEYS) continue;
    calls.push(call);
    call = { keys: [], args: [...head] };
  }
  if (call.keys.length > 0) calls.push(call);
  return calls;
}

/** Resolves once every write has answered; rejects with the first failure (none left unhandled). */
function allSettledOrFirstError(writes: readonly Promise<unknown>[]): Promise<void> {
  if (writes.length === 1) return (writes[0] as Promise<unknown>).then(() => undefined);
  return Promise.allSettled(writes).then((replies) => {
    const failed = replies.find((reply) => reply.status === 'rejected');
    if (failed) throw failed.reason;
  });
}
