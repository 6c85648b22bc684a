import { describe, expect, it } from 'vitest';
import { newestBuild, resumesPinned, type WorkerInfo } from './worker-registry.js';

function worker(buildId: string | undefined, startedAt: number, extra: Partial<WorkerInfo> = {}): WorkerInfo {
  return {
    workerId: `w-${buildId}-${startedAt}`,
    host: 'h',
    pid: 1,
    agents: ['tree'],
    ...(buildId !== undefined && { buildId }),
    versioning: 'pinned',
    concurrency: 1,
    activeRuns: 0,
    startedAt,
    heartbeatAt: 0,
    expiresAt: 0,
    ...extra,
  };
}

describe('newestBuild', () => {
  it('is the build whose earliest live worker started last: restarting an old worker does not bring it back', () => {
    const workers = [worker('A', 100), worker('B', 200), worker('A', 300)];
    expect(newestBuild(workers, 'tree')).toBe('B');
  });

  it('counts only pinned workers with a build that serve the agent', () => {
    const workers = [
      worker('A', 100),
      worker('B', 200, { versioning: undefined }),
      worker('C', 300, { agents: ['other'] }),
      worker(undefined, 400),
    ];
    expect(newestBuild(workers, 'tree')).toBe('A');
    expect(newestBuild(workers, 'nobody')).toBeUndefined();
  });

  it('breaks a tie by the greater build id, the same on every worker', () => {
    expect(newestBuild([worker('b2', 100), worker('b1', 100)], 'tree')).toBe('b2');
  });
});

describe('resumesPinned', () => {
  it('is a pinned worker serving the agent whose build is the run’s or lists it as compatible', () => {
    expect(resumesPinned(worker('A', 1), 'tree', 'A')).toBe(true);
    expect(resumesPinned(worker('B', 1, { compatibleWith: ['A'] }), 'tree', 'A')).toBe(true);
    expect(resumesPinned(worker('B', 1), 'tree', 'A')).toBe(false);
    expect(resumesPinned(worker('A', 1, { versioning: undefined }), 'tree', 'A')).toBe(false);
    expect(resumesPinned(worker('A', 1, { agents: ['other'] }), 'tree', 'A')).toBe(false);
  });
});
