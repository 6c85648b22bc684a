import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import type { WorkerInfo } from '../registry/worker-registry.js';
import { withBuildWait } from './build-wait.js';
import type { RunRecord } from './run-record.js';

const run = (extra: Partial<RunRecord> = {}): RunRecord => ({
  runId: 'r1',
  agentId: 'tree',
  status: 'waiting',
  usage: emptyUsage(),
  modelCalls: 0,
  attempts: 1,
  createdAt: 0,
  pinnedBuild: 'A',
  ...extra,
});

const live = (buildId: string, extra: Partial<WorkerInfo> = {}): WorkerInfo => ({
  workerId: 'w',
  host: 'h',
  pid: 1,
  agents: ['tree'],
  buildId,
  versioning: 'pinned',
  concurrency: 1,
  activeRuns: 0,
  startedAt: 0,
  heartbeatAt: 0,
  expiresAt: 0,
  ...extra,
});

describe('withBuildWait', () => {
  it('says a pinned run waits for its build when no live worker can resume it', () => {
    expect(withBuildWait(run(), [live('B')]).waitingFor).toEqual({ kind: 'build', detail: 'A' });
    expect(
      withBuildWait(run({ status: 'queued', waitingFor: { kind: 'worker', detail: 'tree' } }), []).waitingFor,
    ).toEqual({ kind: 'build', detail: 'A' });
  });

  it('leaves it as it is once a worker of its build, or a compatible one, is live', () => {
    expect(withBuildWait(run(), [live('A')]).waitingFor).toBeUndefined();
    expect(withBuildWait(run(), [live('B', { compatibleWith: ['A'] })]).waitingFor).toBeUndefined();
  });

  it('leaves unpinned, running and ended runs, and runs waiting for something else, as they are', () => {
    const signal = { kind: 'signal' as const, detail: 'go' };
    for (const record of [
      run({ pinnedBuild: undefined }),
      run({ status: 'running' }),
      run({ status: 'succeeded' }),
      run({ waitingFor: signal }),
    ])
      expect(withBuildWait(record, [])).toBe(record);
  });
});
