import type { WorkerInfo } from '@flotilla/runtime/client';

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
    worker.buildId ?? '-',
    `${worker.activeRuns}/${worker.concurrency}`,
    worker.agents.join(','),
    `${Math.max(0, Math.round((now - worker.heartbeatAt) / 100) / 10)}s ago`,
  ]);
  const table = [[...HEADERS], ...rows];
  const widths = HEADERS.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return table
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}
