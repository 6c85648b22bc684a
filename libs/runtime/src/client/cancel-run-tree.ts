/**
 * Cancels a run and every run below it, across workers. The tree is read from the per-run
 * children sets (`runKeys(…).children`); then, for every run of it, root first:
 *  - the cancel flag is set and the id published on the cancel channel, so a worker executing
 *    the run aborts its signal (it ends `cancelled` itself), and a worker that picks it up later
 *    (or picks up a child enqueued after this walk: children check their parent's and root's
 *    flags) ends it without running it;
 *  - its job is removed when no worker holds it (waiting, delayed, waiting-children), and its
 *    record ends `cancelled` (`finish-run-12` also deletes its memory and gives its children set
 *    the record's retention, so no key of it is left without an expiry), and it leaves its
 *    conversation's line of writers (the next run on it is woken). Removing parents before children means no parent is
 *    woken by the removal of its last child.
 */
import { emptyUsage } from '@flotilla/ir';
import type { Redis } from 'ioredis';
import { rootCallPath } from '../engine/execute-run.js';
import { AbortError } from '../errors/run-errors.js';
import { type SerializedError, serializeError } from '../errors/serialize-error.js';
import { ConversationGate } from '../gate/conversation-gate.js';
import { type AgentQueues, runJobFinder } from '../jobs/agent-queues.js';
import { cancelChannel, runKeys } from '../keys.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { runHasEnded } from '../runs/run-has-ended.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { type RedisCommand, sendAcrossSlots } from '../shared/send-across-slots.js';

/** What {@link cancelRunTree} works with. */
export interface CancelRunTreeOptions {
  redis: Redis;
  prefix: string;
  /** The agent queues: each run's job is in its own agent's queue. */
  queues: AgentQueues;
  records: RedisRunRecords;
  /** How long cancel flags live, in seconds. */
  flagSeconds: number;
}

/** How a run of a cancelled tree ends (a deadline ends them `failed` with `RunTimeoutError`). */
export interface TreeRunEnding {
  status: 'cancelled' | 'failed';
  error: SerializedError;
}

/** Cancels `root` and its descendants; `endingOf` @default cancelled with an AbortError */
export async function cancelRunTree(
  options: CancelRunTreeOptions,
  root: RunRecord,
  endingOf?: (record: RunRecord) => TreeRunEnding,
): Promise<void> {
  const tree = await collectTree(options, root.runId);
  await raiseFlags(options, tree);
  for (const runId of tree) {
    const record = runId === root.runId ? root : await options.records.get(runId);
    if (record && !isTerminalStatus(record.status)) await cancelOne(options, record, endingOf?.(record));
  }
}

/** The run ids of the tree under `rootRunId`, breadth first (parents before children). */
async function collectTree(options: CancelRunTreeOptions, rootRunId: string): Promise<string[]> {
  const tree = [rootRunId];
  for (let index = 0; index < tree.length; index++) {
    const runId = tree[index] as string;
    const children = await options.redis.smembers(runKeys(options.prefix, runId).children);
    for (const child of children) if (!tree.includes(child)) tree.push(child);
  }
  return tree;
}

async function raiseFlags(options: CancelRunTreeOptions, tree: string[]): Promise<void> {
  await sendAcrossSlots(options.redis, [
    ...tree.map(
      (runId): RedisCommand => ['SET', runKeys(options.prefix, runId).cancel, '1', 'EX', options.flagSeconds],
    ),
    ...tree.map((runId): RedisCommand => ['PUBLISH', cancelChannel(options.prefix), runId]),
  ]);
}

/**
 * Removes the run's job from its queue (its build queue when pinned, and the agent queue it may
 * still be in while it is moved there): 1 when a job was removed.
 */
async function removeRunJob(queues: AgentQueues, record: RunRecord): Promise<number> {
  const options = { removeChildren: false };
  if (record.pinnedBuild !== undefined) {
    const removed = await queues.queueFor(record.agentId, record.pinnedBuild).remove(record.runId, options);
    if (removed === 1) return removed;
  }
  return queues.queueFor(record.agentId).remove(record.runId, options);
}

/**
 * Removes the run's job unless a worker holds it; a run no worker executes ends `cancelled`
 * here (a running one ends itself when its signal aborts).
 */
async function cancelOne(
  options: CancelRunTreeOptions,
  record: RunRecord,
  ending: TreeRunEnding = {
    status: 'cancelled',
    error: serializeError(new AbortError(`run ${record.runId} was cancelled`)),
  },
): Promise<void> {
  const removed = await removeRunJob(options.queues, record);
  if (removed !== 1 && record.status === 'running') return;
  const ended = await options.records.finish(record.runId, record.callPath ?? rootCallPath(record.agentId), {
    ...ending,
    usage: emptyUsage(),
    modelCalls: 0,
  });
  if (!ended) return;
  if (record.conversationId !== undefined && record.parentRunId === undefined) {
    const { redis, prefix, queues, records } = options;
    const findJob = runJobFinder(records, queues);
    const gate = new ConversationGate({ redis, prefix, findJob, hasEnded: runHasEnded(records) });
    await gate.leave(record.conversationId, record.runId);
  }
}
