/**
 * The worker's side of one writer per conversation (`gate/conversation-gate.ts`): before a root
 * run with a `conversationId` executes, it must enter the conversation's gate (the head of the
 * line gets the lease for this execution attempt); any other run is parked without holding a
 * slot; a run that ended leaves the line, which wakes the next.
 */
import { emptyUsage } from '@flotilla/ir';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { rootCallPath } from '../engine/execute-run.js';
import { serializeError } from '../errors/serialize-error.js';
import type { ConversationGate, LeasedAtSubmit } from '../gate/conversation-gate.js';
import type { OnConflict } from '../gate/waiting-for.js';
import { agentQueueName } from '../jobs/agent-queues.js';
import { STORED_ID_PATTERN } from '../jobs/id-rule.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { SETTLED } from '../shared/settled.js';
import type { ConversationStore } from '../store/conversation-store.js';
import type { LatestRead, RedisConversationStore } from '../store/redis-conversation-store.js';
import { ConversationBusyError } from '../store/store-errors.js';
import { parkAtGate } from './park-at-gate.js';
import type { UnfinishedTurnKeeper } from './unfinished-turn-keeper.js';

/** The conversation a job writes, read from its raw data: root runs with a valid `conversationId` only. */
export interface JobConversation {
  conversationId: string;
  onConflict: OnConflict;
  /** The client gave the run's first attempt the lease at submit (job data `conversationLeased`). */
  leased?: LeasedAtSubmit;
}

export function conversationOf(job: Job | undefined): JobConversation | undefined {
  const data = job?.data as
    | { conversationId?: unknown; onConflict?: unknown; child?: unknown; conversationLeased?: unknown }
    | undefined;
  // Child runs never write their root's conversation (only the root agent's promptChat does).
  if (data?.child !== undefined) return undefined;
  // Most runs have none: no schema parse (its failure builds an error, ~0.7% of a one-turn run).
  if (data?.conversationId === undefined) return undefined;
  // The pattern itself, not the schema: read three times per run, and no error is reported.
  const id = data.conversationId;
  if (typeof id !== 'string' || !STORED_ID_PATTERN.test(id)) return undefined;
  const onConflict = data?.onConflict === 'reject' ? 'reject' : 'enqueue';
  const leased = data.conversationLeased;
  if (leased === 'empty' || leased === 'stored') return { conversationId: id, onConflict, leased };
  return { conversationId: id, onConflict };
}

export interface ConversationWritersOptions {
  gate: ConversationGate;
  records: RedisRunRecords;
  /** How long a parked run waits before it looks again by itself (`FLOTILLA_CONVERSATION_RECHECK_MS`). */
  recheckMs: number;
  /**
   * The store the run loads its conversation from: an attempt that enters reads the latest
   * version in the same call (`ConversationGate.enter`). @default no read
   */
  conversations?: RedisConversationStore;
  /**
   * The worker's queue name (`FlotillaConfig.queueName`): a run's first attempt whose client
   * gave it the lease at submit executes without entering, in its agent's own queue only (see
   * `#leasedAtSubmit`). @default every attempt enters
   */
  queueName?: string;
}

/**
 * What the execution attempt may do: execute (`read`: the conversation's latest version as it
 * entered, for its load: {@link preloadedConversations}), or skip the run (it ended meanwhile).
 */
export type Admission = { read: LatestRead | undefined } | 'ended';

export class ConversationWriters {
  readonly #options: ConversationWritersOptions;

  constructor(options: ConversationWritersOptions) {
    this.#options = options;
  }

  /**
   * Lets the attempt in when its run is first in line on its conversation (it then holds the
   * lease), or parks the job. A head whose run ended without leaving is cleared first.
   * `onParked` runs before the job is parked (the run's deadline job is added there).
   * Returns `ended` when the run ended meanwhile (skip it).
   * @throws DelayedError when the job was parked
   * @throws UnrecoverableError when a `reject` run would have to wait (the run ended `failed`)
   */
  async admit(
    at: { job: Job; token: string | undefined; attempt: string; logger: Logger },
    conversation: JobConversation,
    onParked: () => Promise<void>,
  ): Promise<Admission> {
    const { gate, records, recheckMs, conversations } = this.#options;
    const { job, token, attempt, logger } = at;
    const runId = job.id ?? '';
    const { conversationId } = conversation;
    const leased = this.#leasedAtSubmit(job, conversation);
    // No header at submit, and nobody else may write one since: the load reads nothing.
    if (leased === 'empty') return { read: { from: 0, fields: {}, list: [] } };
    // The load reads the stored version itself (the same two commands the enter would run).
    if (leased === 'stored') return { read: undefined };
    const readFrom = conversations?.latestReadFrom(conversationId);
    let entry = await gate.enter(conversationId, runId, attempt, readFrom);
    if (!entry.entered && (await gate.clearIfEnded(conversationId, entry.headRunId))) {
      logger.warn(
        { conversationId, staleRunId: entry.headRunId },
        'conversation held by an ended run; cleared',
      );
      entry = await gate.enter(conversationId, runId, attempt, readFrom);
    }
    if (entry.entered) return { read: entry.read };
    if (conversation.onConflict === 'reject') {
      await this.#reject(job, conversationId, entry.headRunId);
      throw new UnrecoverableError(
        `${ConversationBusyError.errorName}: conversation ${conversationId} is busy`,
      );
    }
    await onParked();
    logger.info({ conversationId, aheadRunId: entry.headRunId }, 'run waits for its conversation');
    await parkAtGate({
      job,
      token,
      records,
      waitingFor: { kind: 'conversation', detail: `${conversationId} (after run ${entry.headRunId})` },
      recheckMs,
      isOver: () => gate.isFirst(conversationId, runId),
      wake: () => gate.wake(runId),
    });
    // Not parked: the run ended while it waited.
    await gate.leave(conversationId, runId);
    return 'ended';
  }

  /**
   * Whether this attempt holds the lease its client wrote at submit (`register-writer-5`:
   * `{ runId, attempt: '' }`, the run alone in line): only the run's first start
   * (`attemptsStarted === 1`) of the job the client added (its agent's own queue: a job a pinned
   * worker moved to a build queue is another job, started after the run's first attempt may
   * have run). Every other attempt (taken over, handed back, retried, parked and woken) enters,
   * which writes its own token into the lease: from then on the first attempt's appends are
   * refused, as any stale attempt's. Until then no other attempt of the run can write.
   */
  #leasedAtSubmit(job: Job, conversation: JobConversation): LeasedAtSubmit | undefined {
    const { queueName } = this.#options;
    if (conversation.leased === undefined || queueName === undefined || job.attemptsStarted !== 1) return;
    if (job.queueName !== agentQueueName(queueName, job.name)) return;
    return conversation.leased;
  }

  /**
   * The run ended (or will never run): it leaves its conversation's line, and the next is woken.
   * With `attempt` (the ending attempt's token), only while no other attempt of the run holds
   * the lease: sent in the same tick as that attempt's finish, a finish refused (a newer attempt
   * owns the run) leaves nothing.
   */
  release(job: Job | undefined, attempt?: string): Promise<void> {
    const conversation = conversationOf(job);
    // Not async: the leave's own promise (or none) is the answer.
    if (!conversation || !job?.id) return SETTLED;
    return this.#options.gate.leave(conversation.conversationId, job.id, attempt);
  }

  /**
   * The run ended failed or cancelled for good: its unfinished turns are stored closed, unless
   * a `rollback` submission cancelled it (they are dropped then). Call it before `release`.
   */
  async closeUnfinishedTurns(job: Job, turns: UnfinishedTurnKeeper, logger: Logger): Promise<void> {
    const conversation = conversationOf(job);
    if (!conversation || !job.id) return;
    if (await this.#options.gate.isRolledBack(conversation.conversationId, job.id)) return;
    await turns.closeAll(logger);
  }

  async #reject(job: Job, conversationId: string, holderRunId: string): Promise<void> {
    const runId = job.id ?? '';
    await this.#options.records.finish(runId, rootCallPath(job.name), {
      status: 'failed',
      error: serializeError(new ConversationBusyError(conversationId, holderRunId)),
      usage: emptyUsage(),
      modelCalls: 0,
    });
    await this.#options.gate.leave(conversationId, runId);
  }
}

/**
 * The run's view of `store` that serves its first load of `conversationId`'s latest version (or
 * of that same version, on a replay) from `read`, what its attempt read as it entered the gate,
 * instead of reading it again. Under the lease nobody else appends, so it is what a load would
 * read, until the run's own first append: from then on (and for every other load) the store is read.
 */
export function preloadedConversations(
  store: RedisConversationStore,
  conversationId: string,
  read: LatestRead,
): ConversationStore {
  let unused: LatestRead | undefined = read;
  return {
    load(id, options) {
      const preloaded = id === conversationId ? unused : undefined;
      if (
        preloaded &&
        (options?.version === undefined || options.version === store.versionOfRead(id, preloaded))
      ) {
        unused = undefined;
        return store.loadLatestRead(id, preloaded);
      }
      return store.load(id, options);
    },
    append(id, change) {
      unused = undefined;
      return store.append(id, change);
    },
  };
}
