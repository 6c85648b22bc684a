/**
 * `client.listRuns`: a page of a tenant's runs, newest first, from the run list indexes
 * (`runs/run-index.ts`), never a SCAN over keys. The most selective index the query names is
 * walked (tree, then conversation, then schedule, then agent, then all runs); every entry is checked against
 * its record, so the other filters (status above all, which changes as a run goes) are applied
 * to what the record says now, and entries of expired records are skipped and pruned.
 */
import { runIndexKeys } from '../keys.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { indexMember, runIdOfMember, timeBound } from '../runs/run-index.js';
import type { RunRecord } from '../runs/run-record.js';
import { type CheckedRunQuery, encodeCursor } from './list-runs-query.js';

/** A page of runs: `nextCursor` is set when more may follow (pass it as `cursor`). */
export interface RunList {
  runs: RunRecord[];
  nextCursor?: string;
}

/**
 * Index entries one call reads at most: a page whose filters match few of the walked index's
 * runs comes back shorter than `limit`, with a `nextCursor` to go on from, instead of reading
 * without bound.
 */
export const RUN_LIST_SCAN_BUDGET = 5000;

/**
 * A page of the stored runs of `tenant` that match `query` (ids stored, i.e. qualified by the
 * tenant; `query` ids are stored ids too).
 */
export async function listStoredRuns(
  records: RedisRunRecords,
  prefix: string,
  tenant: string | undefined,
  query: CheckedRunQuery,
): Promise<RunList> {
  const keys = runIndexKeys(prefix, tenant);
  const walked =
    query.rootRunId !== undefined
      ? keys.root(query.rootRunId)
      : query.conversationId !== undefined
        ? keys.conversation(query.conversationId)
        : query.scheduleId !== undefined
          ? keys.schedule(query.scheduleId)
          : query.agentId !== undefined
            ? keys.agent(query.agentId)
            : keys.all;
  const from = query.createdAfter === undefined ? '-' : `[${timeBound(query.createdAfter + 1)}`;
  let before =
    query.after ?? (query.createdBefore === undefined ? undefined : timeBound(query.createdBefore));
  const runs: RunRecord[] = [];
  let scanned = 0;
  while (runs.length < query.limit && scanned < RUN_LIST_SCAN_BUDGET) {
    const batchSize = Math.min(Math.max(query.limit - runs.length, 50), RUN_LIST_SCAN_BUDGET - scanned);
    const members = await records.index.range(walked, before, from, batchSize);
    if (members.length === 0) {
      if (query.rootRunId !== undefined) await addRoot(records, tenant, query, before, runs);
      return { runs };
    }
    scanned += members.length;
    const found = await records.getMany(members.map(runIdOfMember));
    const gone: string[] = [];
    for (const [i, member] of members.entries()) {
      const record = found[i];
      before = member;
      if (record === undefined) gone.push(member);
      else if (matches(record, tenant, query)) runs.push(record);
      if (runs.length === query.limit) break;
    }
    // Retention: the record expired, so its entries go (a record is written before its entries).
    await records.index.prune([...new Set([walked, keys.all])], gone);
    if (members.length < batchSize && runs.length < query.limit) {
      if (query.rootRunId !== undefined) await addRoot(records, tenant, query, before, runs);
      return { runs };
    }
  }
  return before === undefined ? { runs } : { runs, nextCursor: encodeCursor(before) };
}

/**
 * A tree's index holds its child runs only; its root, created before all of them, comes last:
 * once the index is walked to its end, when it is within the time bounds and below the cursor.
 */
async function addRoot(
  records: RedisRunRecords,
  tenant: string | undefined,
  query: CheckedRunQuery,
  before: string | undefined,
  runs: RunRecord[],
): Promise<void> {
  const root = (await records.getMany([query.rootRunId ?? '']))[0];
  if (root === undefined || root.parentRunId !== undefined || !matches(root, tenant, query)) return;
  const member = indexMember(root.createdAt, root.runId);
  if (before !== undefined && member >= before) return;
  if (query.createdAfter !== undefined && root.createdAt <= query.createdAfter) return;
  if (query.createdBefore !== undefined && root.createdAt >= query.createdBefore) return;
  runs.push(root);
}

function matches(record: RunRecord, tenant: string | undefined, query: CheckedRunQuery): boolean {
  if (record.tenant !== tenant) return false;
  if (query.status !== undefined && record.status !== query.status) return false;
  if (query.agentId !== undefined && record.agentId !== query.agentId) return false;
  if (query.conversationId !== undefined && record.conversationId !== query.conversationId) return false;
  if (query.scheduleId !== undefined && record.scheduleId !== query.scheduleId) return false;
  if (query.rootRunId !== undefined && (record.rootRunId ?? record.runId) !== query.rootRunId) return false;
  return true;
}
