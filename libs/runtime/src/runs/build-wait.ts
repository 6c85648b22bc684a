/**
 * Worker versioning: a pinned run (`RunRecord.pinnedBuild`) that no live worker of its build, or
 * of one declaring it compatible, can resume waits for that build. That is read from the worker
 * registry when records are read (`getRun`, `listRuns`, the run tree), not stamped on the record,
 * so it clears the moment such a worker announces itself and cannot be left behind by a crash.
 */
import type { WaitingFor } from '../gate/waiting-for.js';
import { type LiveWorkers, resumesPinned, type WorkerInfo } from '../registry/worker-registry.js';
import type { RunRecord } from './run-record.js';

/** Whether `record` is a pinned run whose progress depends on a worker of its build. */
function awaitsBuild(record: RunRecord): record is RunRecord & { pinnedBuild: string } {
  if (record.pinnedBuild === undefined) return false;
  if (record.status !== 'queued' && record.status !== 'waiting') return false;
  // A run waiting for something else (a signal, a person, a conversation) says so first; "no
  // worker serves the agent" is the same fact, said more precisely by the build.
  return record.waitingFor === undefined || record.waitingFor.kind === 'worker';
}

/** `record`, with `waitingFor: { kind: 'build' }` when no live worker in `workers` can resume it. */
export function withBuildWait(record: RunRecord, workers: readonly WorkerInfo[]): RunRecord {
  if (!awaitsBuild(record)) return record;
  if (workers.some((worker) => resumesPinned(worker, record.agentId, record.pinnedBuild))) return record;
  const waitingFor: WaitingFor = { kind: 'build', detail: record.pinnedBuild };
  return { ...record, waitingFor };
}

/** {@link withBuildWait} over `records`; the registry is read only when one of them is pinned and waits. */
export async function withBuildWaits<T extends RunRecord | undefined>(
  records: readonly T[],
  workers: LiveWorkers,
): Promise<T[]> {
  if (!records.some((record) => record !== undefined && awaitsBuild(record))) return [...records];
  const live = await workers.list();
  return records.map((record) => (record === undefined ? record : withBuildWait(record, live)) as T);
}
