import type { Worker } from 'bullmq';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { LiveWorkers, WorkerInfo } from '../registry/worker-registry.js';
import { BuildDrain } from './build-drain.js';

/** The part of a BullMQ Worker BuildDrain drives: pause and resume. */
class Consumer {
  paused = false;
  readonly calls: string[] = [];
  isPaused(): boolean {
    return this.paused;
  }
  async pause(doNotWaitActive?: boolean): Promise<void> {
    this.calls.push(`pause(${doNotWaitActive})`);
    this.paused = true;
  }
  async resume(): Promise<void> {
    this.calls.push('resume');
    this.paused = false;
  }
}

const live = (buildId: string, startedAt: number, agents = ['tree']): WorkerInfo => ({
  workerId: `${buildId}-${startedAt}`,
  host: 'h',
  pid: 1,
  agents,
  buildId,
  versioning: 'pinned',
  concurrency: 1,
  activeRuns: 0,
  startedAt,
  heartbeatAt: 0,
  expiresAt: 0,
});

function drainOf(fleet: { workers: WorkerInfo[] | Error }) {
  const tree = new Consumer();
  const other = new Consumer();
  const workers = {
    list: async () => {
      if (fleet.workers instanceof Error) throw fleet.workers;
      return fleet.workers;
    },
  } as unknown as LiveWorkers;
  const drain = new BuildDrain({
    buildId: 'A',
    workers,
    newRuns: new Map([
      ['tree', tree as unknown as Worker],
      ['other', other as unknown as Worker],
    ]),
    logger: pino({ level: 'silent' }),
  });
  return { drain, tree, other };
}

describe('BuildDrain', () => {
  it('stops taking new runs of an agent a newer build serves, and takes them again once it is gone', async () => {
    const fleet = { workers: [live('A', 100, ['tree', 'other'])] };
    const { drain, tree, other } = drainOf(fleet);
    await drain.checkNow();
    expect(tree.calls).toEqual([]);

    fleet.workers = [live('A', 100, ['tree', 'other']), live('B', 200, ['tree'])];
    await drain.checkNow();
    // Without waiting for its active runs: they are pinned runs of this build, left to finish.
    expect(tree.calls).toEqual(['pause(true)']);
    expect(other.calls).toEqual([]);
    expect(drain.draining).toEqual(['tree']);
    await drain.checkNow();
    expect(tree.calls).toEqual(['pause(true)']);

    // A rollback: the newer build's workers are gone.
    fleet.workers = [live('A', 100, ['tree', 'other'])];
    await drain.checkNow();
    expect(tree.calls).toEqual(['pause(true)', 'resume']);
    expect(drain.draining).toEqual([]);
    await drain.close();
  });

  it('changes nothing while the registry cannot be read, and nothing after close', async () => {
    const fleet: { workers: WorkerInfo[] | Error } = { workers: [live('A', 100), live('B', 200)] };
    const { drain, tree } = drainOf(fleet);
    await drain.checkNow();
    fleet.workers = new Error('Redis down');
    await drain.checkNow();
    expect(tree.calls).toEqual(['pause(true)']);
    expect(drain.draining).toEqual(['tree']);
    await drain.close();
    fleet.workers = [live('A', 100)];
    await drain.checkNow();
    expect(tree.calls).toEqual(['pause(true)']);
  });
});
