import type { WorkerInfo } from '@flotilla/runtime/client';
import { textTable } from './text-table.js';

const HEADERS = ['WORKER', 'HOST', 'PID', 'BUILD', 'ACTIVE', 'AGENTS', 'BEAT'] as const;

/**
 * `flotilla workers`: one line per live worker, columns padded to their widest cell; `ACTIVE`
 * is active runs / concurrency, `BEAT` the age of its latest heartbeat at `now`.
 */
export function workersTable(workers: readonly WorkerInfo[], now: number): string {
  if (workers.length === 0) return 'No live workers.\n';
  const rows = workers.map((worker) => [
    worker.workerId,
    worker.host,
    String(worker.pid),
    buildColumn(worker),
    `${worker.activeRuns}/${worker.concurrency}`,
    worker.agents.join(','),
    `${Math.max(0, Math.round((now - worker.heartbeatAt) / 100) / 10)}s ago`,
  ]);
  return textTable(HEADERS, rows);
}

/** Its build, `(pinned)` when it pins runs, and the builds it declares compatible. */
function buildColumn(worker: WorkerInfo): string {
  if (worker.buildId === undefined) return '-';
  if (worker.versioning !== 'pinned') return worker.buildId;
  const compatible = worker.compatibleWith?.length ? ` +${worker.compatibleWith.join(',')}` : '';
  const draining = worker.draining?.length ? `, draining ${worker.draining.join(',')}` : '';
  return `${worker.buildId} (pinned${compatible}${draining})`;
}
