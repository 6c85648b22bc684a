/**
 * `client.getRunTree`: a run and every child run below it, nested, read from the run records and
 * the children sets (`runKeys(…).children`) level by level, bounded by a node count.
 */
import type { TokenUsage } from '@flotilla/ir';
import type { Redis } from 'ioredis';
import type { WaitingFor } from '../gate/waiting-for.js';
import { runKeys } from '../keys.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import type { RunStatus } from '../runs/run-status.js';

/** The most nodes one tree holds, and the default. */
export const MAX_RUN_TREE_NODES = 5000;
export const DEFAULT_RUN_TREE_NODES = 1000;

/** One run of a tree (`client.getRunTree`). Times are epoch ms. */
export interface RunTreeNode {
  runId: string;
  agentId: string;
  status: RunStatus;
  /** For a child run: its callPath in the tree (the parent's journal position of the call). */
  callPath?: string;
  /** While queued at the waiting gate: what the run waits for. */
  waitingFor?: WaitingFor;
  attempts: number;
  /** This run's model calls and usage, with those of its finished child runs. */
  modelCalls: number;
  usage: TokenUsage;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  /** From the first start to the end (or to now while it has not ended); none before it starts. */
  durationMs?: number;
  /** The latest value the run reported with `reportProgress`. */
  progress?: unknown;
  /** The child runs it called, oldest first. */
  children: RunTreeNode[];
}

/** A run tree: `truncated` when it had more runs than `maxNodes` (the deepest or latest are left out). */
export interface RunTree {
  root: RunTreeNode;
  nodeCount: number;
  truncated: boolean;
}

/**
 * The stored tree under `root` (a stored record), breadth first, at most `maxNodes` nodes.
 * `named` turns a stored record into the caller's ids.
 */
export async function readRunTree(
  options: { redis: Redis; prefix: string; records: RedisRunRecords },
  root: RunRecord,
  maxNodes: number,
  named: (record: RunRecord) => RunRecord,
): Promise<RunTree> {
  const now = Date.now();
  const rootNode = nodeOf(named(root), now);
  let level: { storedId: string; node: RunTreeNode }[] = [{ storedId: root.runId, node: rootNode }];
  let nodeCount = 1;
  let truncated = false;
  while (level.length > 0) {
    const childIds = await Promise.all(
      level.map(({ storedId }) => options.redis.smembers(runKeys(options.prefix, storedId).children)),
    );
    const next: typeof level = [];
    for (const [i, { node }] of level.entries()) {
      const ids = childIds[i] ?? [];
      const room = maxNodes - nodeCount;
      if (ids.length > room) truncated = true;
      const records = await options.records.getMany(ids.slice(0, Math.max(0, room)));
      const children = records
        .filter((record): record is RunRecord => record !== undefined && record.tenant === root.tenant)
        .sort((a, b) => a.createdAt - b.createdAt || (a.callPath ?? '').localeCompare(b.callPath ?? ''));
      for (const child of children) {
        const childNode = nodeOf(named(child), now);
        node.children.push(childNode);
        next.push({ storedId: child.runId, node: childNode });
      }
      nodeCount += children.length;
    }
    level = next;
  }
  return { root: rootNode, nodeCount, truncated };
}

function nodeOf(record: RunRecord, now: number): RunTreeNode {
  const node: RunTreeNode = {
    runId: record.runId,
    agentId: record.agentId,
    status: record.status,
    attempts: record.attempts,
    modelCalls: record.modelCalls,
    usage: record.usage,
    createdAt: record.createdAt,
    children: [],
  };
  if (record.callPath !== undefined) node.callPath = record.callPath;
  if (record.waitingFor !== undefined) node.waitingFor = record.waitingFor;
  if (record.startedAt !== undefined) {
    node.startedAt = record.startedAt;
    node.durationMs = (record.endedAt ?? now) - record.startedAt;
  }
  if (record.endedAt !== undefined) node.endedAt = record.endedAt;
  if (record.progress !== undefined) node.progress = record.progress;
  return node;
}
