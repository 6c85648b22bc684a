/**
 * Two workers' resources in one process over real Redis: the owner holds an instance, the
 * other worker reaches it through the broker (or builds its own from a definition).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { defineResource } from './define-resource.js';
import { hashDeps } from './deps-hash.js';
import type { ResourceDescriptor } from './resource-descriptor.js';
import { ResourceCallTimeoutError, ResourceOwnerGoneError } from './resource-errors.js';
import { isResourceProxy } from './resource-proxy.js';
import { WorkerResources, type WorkerResourcesOptions } from './worker-resources.js';

const fixture = useRedis(import.meta.filename);
const timing = { heartbeatIntervalMs: 100, heartbeatTtlMs: 400, callTimeoutMs: 5000 };
const opened: WorkerResources[] = [];
/** Releases calls to `hang()` left running by a test. */
const hangs: (() => void)[] = [];

afterEach(async () => {
  for (const release of hangs.splice(0)) release();
  await Promise.all(opened.splice(0).map((worker) => worker.close()));
});

async function startWorker(options: Partial<WorkerResourcesOptions> = {}): Promise<WorkerResources> {
  const worker = new WorkerResources({
    redis: fixture.connect(),
    prefix: fixture.prefix,
    timing,
    ...options,
  });
  opened.push(worker);
  await worker.start();
  return worker;
}

class QuotaError extends Error {
  override readonly name = 'QuotaError';
  readonly remaining = 0;
}

/** A calculator the owner worker creates inline, recording the calls it serves. */
function calculator() {
  const calls: string[] = [];
  return {
    calls,
    instance: {
      async add(a: number, b: number) {
        calls.push(`add ${a} ${b}`);
        return { sum: a + b };
      },
      async spend() {
        throw new QuotaError('quota exhausted for today');
      },
      /** Reports what arrived: how many arguments and which were `undefined` or `null`. */
      async describeArgs(...args: unknown[]) {
        return {
          count: args.length,
          kinds: args.map((arg) => (arg === undefined ? 'undefined' : JSON.stringify(arg))),
        };
      },
      async hang() {
        await new Promise<void>((resolve) => hangs.push(resolve));
      },
    },
  };
}

type Calculator = ReturnType<typeof calculator>['instance'];

/** Equips `calc` in an owner run on `owner` and returns what a child inherits. */
async function expose(
  owner: WorkerResources,
  deps: unknown[] = ['v1'],
): Promise<{
  descriptor: ResourceDescriptor;
  calls: string[];
}> {
  const { calls, instance } = calculator();
  const run = await owner.openRun('owner-run');
  const hashed = hashDeps(deps);
  await run.acquire('root/agent:parent:0', 'calc', hashed, { create: () => instance });
  return { descriptor: run.describe('root/agent:parent:0', 'calc', hashed), calls };
}

describe('resource broker', () => {
  it('forwards a method call to the owner worker’s instance and returns its JSON result', async () => {
    const owner = await startWorker();
    const other = await startWorker();
    const { descriptor, calls } = await expose(owner);
    const child = await other.openRun('child-run', [descriptor]);
    const calc = child.resolve('calc') as Calculator;
    expect(isResourceProxy(calc)).toBe(true);
    await expect(calc.add(2, 3)).resolves.toEqual({ sum: 5 });
    expect(calls).toEqual(['add 2 3']);
  });

  it('passes an omitted or undefined argument as omitted (trailing) or undefined, never null', async () => {
    const owner = await startWorker();
    const other = await startWorker();
    const { descriptor } = await expose(owner);
    const calc = (await other.openRun('child-run', [descriptor])).resolve('calc') as Calculator;
    await expect(calc.describeArgs()).resolves.toEqual({ count: 0, kinds: [] });
    await expect(calc.describeArgs(undefined)).resolves.toEqual({ count: 0, kinds: [] });
    await expect(calc.describeArgs(1, undefined, undefined)).resolves.toEqual({ count: 1, kinds: ['1'] });
    await expect(calc.describeArgs(undefined, null, 2)).resolves.toEqual({
      count: 3,
      kinds: ['undefined', 'null', '2'],
    });
  });

  it('rethrows the owner’s error with its name, message and data', async () => {
    const owner = await startWorker();
    const other = await startWorker();
    const { descriptor } = await expose(owner);
    const calc = (await other.openRun('child-run', [descriptor])).resolve('calc') as Calculator;
    const error = await calc.spend().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'QuotaError', message: 'quota exhausted for today', remaining: 0 });
  });

  it('fails with ResourceCallTimeoutError when a live owner does not answer in time', async () => {
    const owner = await startWorker();
    const other = await startWorker({ timing: { ...timing, callTimeoutMs: 300 } });
    const { descriptor } = await expose(owner);
    const calc = (await other.openRun('child-run', [descriptor])).resolve('calc') as Calculator;
    const error = await calc.hang().catch((caught: unknown) => caught);
    expect(ResourceCallTimeoutError.is(error)).toBe(true);
    expect((error as ResourceCallTimeoutError).method).toBe('hang');
  });

  it('fails with ResourceOwnerGoneError (worker-gone) once the owner worker has stopped', async () => {
    const owner = await startWorker();
    const other = await startWorker();
    const { descriptor } = await expose(owner);
    const calc = (await other.openRun('child-run', [descriptor])).resolve('calc') as Calculator;
    await owner.close();
    const error = await calc.add(1, 1).catch((caught: unknown) => caught);
    expect(ResourceOwnerGoneError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'worker-gone', key: 'calc', ownerWorkerId: owner.workerId });
  });

  it('fails with ResourceOwnerGoneError (instance-released) when the owner run has ended', async () => {
    const owner = await startWorker();
    const other = await startWorker();
    const { descriptor } = await expose(owner);
    await owner.registry.releaseRun('owner-run');
    const calc = (await other.openRun('child-run', [descriptor])).resolve('calc') as Calculator;
    const error = await calc.add(1, 1).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ResourceOwnerGoneError', reason: 'instance-released' });
  });

  it('gives a child on the owner’s worker the very same instance', async () => {
    const owner = await startWorker();
    const { descriptor } = await expose(owner);
    const ownerInstance = owner.registry.lookup(
      `run:owner-run:root/agent:parent:0\u001fcalc\u001f${descriptor.depsHash}`,
    );
    const child = await owner.openRun('child-run', [descriptor]);
    expect(child.resolve('calc')).toBe(ownerInstance?.instance);
  });

  it('builds a local instance from a definition registered on the child’s worker, with the exposed deps', async () => {
    const built: unknown[][] = [];
    const owner = await startWorker();
    const other = await startWorker({
      definitions: [
        defineResource('calc', {
          create: (deps) => {
            built.push(deps);
            return {
              async add(a: number, b: number) {
                return { sum: a + b, local: true };
              },
            };
          },
        }),
      ],
    });
    const { descriptor, calls } = await expose(owner, [{ version: 1 }]);
    const child = await other.openRun('child-run', [descriptor]);
    const calc = child.resolve('calc') as Calculator;
    expect(isResourceProxy(calc)).toBe(false);
    await expect(calc.add(1, 2)).resolves.toEqual({ sum: 3, local: true });
    expect(built).toEqual([[{ version: 1 }]]);
    expect(calls).toEqual([]);
  });

  it('opens a run with nothing to build at once (no promise), and one with a definition to build after it is built', async () => {
    const built: string[] = [];
    const owner = await startWorker();
    const other = await startWorker({
      definitions: [
        defineResource('calc', {
          create: () => {
            built.push('calc');
            return { add: () => 0 };
          },
        }),
      ],
    });
    const { descriptor } = await expose(owner);
    // No inherited key, or none this worker defines: the run's resources, not a promise of them.
    expect(other.openRun('root-run')).not.toBeInstanceOf(Promise);
    expect(owner.openRun('child-run', [descriptor])).not.toBeInstanceOf(Promise);
    const opening = other.openRun('child-run', [descriptor]);
    expect(opening).toBeInstanceOf(Promise);
    const child = await opening;
    expect(built).toEqual(['calc']);
    expect(isResourceProxy(child.resolve('calc'))).toBe(false);
  });
});
