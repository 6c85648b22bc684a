/**
 * One writer per conversation (ARCHITECTURE.md §9), the `conversation` kind of the waiting gate.
 * Under the conversation's hash tag (`conversationGateKeys`): a line of writers (run ids in
 * submission order) and a lease (the run at the head of the line and its execution attempt).
 * Only the lease holder may append (`append-conversation-10` checks it), so a stale execution
 * of a run (crashed, handed back, abandoned) can never write again.
 *
 * - A client registers a run when it submits it (`register`), which decides `onConflict`.
 * - A worker asks to enter before it executes the run (`enter`): the head gets the lease, any
 *   other run is parked by the worker (`worker/park-at-gate.ts`) without holding a slot.
 * - When a run ends (any terminal status, or cancelled while it waited) it leaves (`leave`),
 *   and the new head's parked job is woken at once.
 * A lost wake-up (a crash between a run's end and its `leave`) only delays the next run: parked
 * runs look again after `FLOTILLA_CONVERSATION_RECHECK_MS`, and a head whose run ended (or whose
 * record is gone) is cleared then (`clearIfEnded`).
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { conversationGateKeys, conversationKeys } from '../keys.js';
import type { LatestRead } from '../store/redis-conversation-store.js';
import { enterWriterScript } from './lua/enter-writer-5.lua.js';
import { leaveWriterScript } from './lua/leave-writer-7.lua.js';
import { registerWriterScript } from './lua/register-writer-5.lua.js';
import type { OnConflict } from './waiting-for.js';

/** What {@link ConversationGate.register} did. */
export type Registration =
  /**
   * In line; `ahead` lists the runs to cancel (for `interrupt` and `rollback`, else empty): the
   * head, then the runs that waited, which already left the line (the new run is next after the head).
   */
  | { kind: 'registered'; ahead: string[]; leased?: LeasedAtSubmit }
  /** Already in line (a repeated submit): nothing changed. */
  | { kind: 'already' }
  /** `reject`: another run holds or waits for the conversation. */
  | { kind: 'busy'; holderRunId: string };

/**
 * A run registered alone in line with the lease for its first attempt (`register(…, { lease })`):
 * whether the conversation was `empty` (no header) or `stored` then. Under that lease nobody
 * else writes it, so the first attempt's load reads nothing (`empty`) or the stored version.
 */
export type LeasedAtSubmit = 'empty' | 'stored';

/**
 * What {@link ConversationGate.enter} decided; entered with `readFrom`, the conversation's latest
 * version as the same call read it (`LatestRead`).
 */
export type Entry = { entered: true; read?: LatestRead } | { entered: false; headRunId: string };

export interface ConversationGateOptions {
  redis: Redis;
  prefix: string;
  /** The job of a run (in its agent's queue): `leave` wakes the next run's delayed job. */
  findJob: (runId: string) => Promise<Job | undefined>;
  /** Whether the run ended (terminal record) or has no record any more. */
  hasEnded: (runId: string) => Promise<boolean>;
}

/** How many ended runs a `reject` registration clears from the head of the line before it gives up. */
const MAX_ENDED_HEADS_CLEARED = 8;

export class ConversationGate {
  readonly #options: ConversationGateOptions;

  constructor(options: ConversationGateOptions) {
    this.#options = options;
  }

  /**
   * Puts the run in line. With `lease` (a submit that starts at once), an `enqueue` onto an
   * empty line also gives the lease to the run's first attempt, which then executes without
   * {@link enter}: the reply's `leased`.
   */
  async register(
    conversationId: string,
    runId: string,
    onConflict: OnConflict,
    options: { lease?: boolean } = {},
  ): Promise<Registration> {
    const keys = this.#keys(conversationId);
    const header = conversationKeys(this.#options.prefix, conversationId).header;
    for (let cleared = 0; ; cleared++) {
      const reply = (await registerWriterScript.run(
        this.#options.redis,
        [keys.writers, keys.sequence, keys.rollbacks, keys.lease, header],
        [runId, onConflict, options.lease ? '1' : '0'],
      )) as [number, ...(string | number)[]];
      const [code, ...rest] = reply;
      if (code === -1) {
        const holderRunId = String(rest[0]);
        // A run whose result was already delivered may not have left the line yet (its worker
        // leaves just after ending the record): it holds nothing, so `reject` must not see it.
        if (cleared < MAX_ENDED_HEADS_CLEARED && (await this.clearIfEnded(conversationId, holderRunId)))
          continue;
        return { kind: 'busy', holderRunId };
      }
      if (code === 0) return { kind: 'already' };
      if (code === 2) return { kind: 'registered', ahead: [], leased: rest[0] === 1 ? 'stored' : 'empty' };
      return { kind: 'registered', ahead: rest.map(String) };
    }
  }

  /**
   * Gives the lease to this attempt when `runId` is first in line. With `readFrom` (a list
   * index, `RedisConversationStore.latestReadFrom`), an attempt that enters also reads the
   * conversation's latest version in the same call: its load needs no round trip of its own.
   */
  async enter(conversationId: string, runId: string, attempt: string, readFrom?: number): Promise<Entry> {
    const keys = this.#keys(conversationId);
    const stored = conversationKeys(this.#options.prefix, conversationId);
    const [code, head, list] = (await enterWriterScript.runBuffer(
      this.#options.redis,
      [keys.writers, keys.sequence, keys.lease, stored.header, stored.messages],
      [runId, attempt, readFrom ?? ''],
    )) as [number, (Buffer | Buffer[])?, Buffer[]?];
    if (code !== 1) return { entered: false, headRunId: String(head) };
    if (readFrom === undefined || !Array.isArray(head) || !Array.isArray(list)) return { entered: true };
    return { entered: true, read: { from: readFrom, fields: hashOf(head), list } };
  }

  /**
   * Leaves the line (idempotent) and wakes the run now first in line. With `attempt` (the
   * ending attempt's token), nothing is done while another attempt of the run holds the lease.
   */
  leave(conversationId: string, runId: string, attempt?: string): Promise<void> {
    const keys = this.#keys(conversationId);
    // Not async: the script's promise and one `.then` (a leave per run on a conversation).
    return leaveWriterScript
      .run(
        this.#options.redis,
        [keys.writers, keys.sequence, keys.lease, keys.rollbacks],
        [runId, attempt ?? ''],
      )
      .then((head) => {
        if (typeof head === 'string' && head !== '' && head !== runId) return this.wake(head);
      });
  }

  /** Moves a parked run's job from delayed to wait; a job in any other state is left alone. */
  async wake(runId: string): Promise<void> {
    const job = await this.#options.findJob(runId);
    if (!job || !(await job.isDelayed())) return;
    // It may have been taken, or woken by another leave, since: promote refuses, which is fine.
    await job.promote().catch(() => undefined);
  }

  /** Whether `runId` is first in line (a parked run checks it once parked, against a lost wake-up). */
  async isFirst(conversationId: string, runId: string): Promise<boolean> {
    const [head] = await this.#options.redis.zrange(this.#keys(conversationId).writers, 0, 0);
    return head === runId;
  }

  /**
   * Clears a head whose run ended (or whose record is gone) but never left: a crash between its
   * end and its `leave`. Returns `true` when it cleared it.
   */
  async clearIfEnded(conversationId: string, headRunId: string): Promise<boolean> {
    if (!(await this.#options.hasEnded(headRunId))) return false;
    await this.leave(conversationId, headRunId);
    return true;
  }

  /** Whether a `rollback` submission cancelled `runId`: its unfinished turn is then discarded. */
  async isRolledBack(conversationId: string, runId: string): Promise<boolean> {
    return (await this.#options.redis.sismember(this.#keys(conversationId).rollbacks, runId)) === 1;
  }

  #keys(conversationId: string) {
    return conversationGateKeys(this.#options.prefix, conversationId);
  }
}

/** HGETALL's flat field/value reply as a record. */
function hashOf(flat: Buffer[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let index = 0; index + 1 < flat.length; index += 2)
    fields[String(flat[index])] = String(flat[index + 1]);
  return fields;
}
