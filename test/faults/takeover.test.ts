/**
 * Takeover in seconds (issue 10 part 2) with the default lock settings: 20 runs in flight on a
 * worker process that is SIGKILLed all complete on a second worker, each in exactly one attempt
 * at a time; a worker whose shutdown grace period ends hands its runs back at once (its jobs
 * go back to wait, no lock to wait for) and the other worker finishes them. The times are
 * logged as figures (no threshold: speed belongs in bench/).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient, type RunHandle } from '@flotilla/runtime/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { overlaps, readFenceLog } from './fence-log.js';

const redis = useRedis(import.meta.filename);
const PROGRAM = fileURLToPath(new URL('./fixtures/fence-worker.ts', import.meta.url));
const RUNS = 20;
const STEPS = 4;

let dir: string;
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(() => {
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterEach(async () => {
  await workers?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await client?.close();
});

/**
 * Starts the first worker (it takes every run), submits the runs, waits until all execute there,
 * then starts the second. The runs wait at their first step until `release()`, so none ends on
 * the first worker however long the second takes to start.
 */
async function runsInFlightOnOneWorker(env: Record<string, string> = {}) {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-takeover-'));
  const holdFile = join(dir, 'release');
  workers = new WorkerProcesses(PROGRAM, {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    LOG_DIR: dir,
    STEPS: String(STEPS),
    STEP_MS: '200',
    CONCURRENCY: String(RUNS),
    HOLD_FILE: holdFile,
    ...env,
  });
  const first = await workers.start();
  const runs = await Promise.all(
    Array.from({ length: RUNS }, () => client.submit('fenced', { steps: STEPS })),
  );
  await waitUntil(
    async () => {
      const started = new Set(readFenceLog(dir).attempts.map((line) => line.runId));
      return runs.every((run) => started.has(run.id)) || undefined;
    },
    { what: `all ${RUNS} runs executing on the first worker` },
  );
  await workers.start();
  return { first: first.pid ?? 0, runs, release: () => writeFileSync(holdFile, '') };
}

/** Every run succeeded in two attempts (the second on another process), never two at once. */
async function expectFinishedElsewhere(runs: RunHandle[], first: number) {
  expect(await Promise.all(runs.map((run) => run.result()))).toEqual(
    runs.map(() => `done after ${STEPS} steps`),
  );
  const log = readFenceLog(dir);
  expect(overlaps(log.work)).toEqual([]);
  for (const run of runs) {
    const attempts = log.attempts.filter((line) => line.runId === run.id);
    expect(attempts.map((line) => line.pid === first)).toEqual([true, false]);
    expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  }
}

describe('when a worker with 20 runs in flight is killed (default lock settings)', () => {
  it('lets another worker complete all of them, one attempt at a time', async () => {
    const { first, runs, release } = await runsInFlightOnOneWorker();
    const killedAt = Date.now();
    await workers.kill(first);
    release();
    await Promise.all(runs.map((run) => run.result()));
    const completedMs = Date.now() - killedAt;
    const resumed = readFenceLog(dir).attempts.filter((line) => line.attempt === 2);
    const resumedMs = Math.max(...resumed.map((line) => line.at)) - killedAt;
    console.log(
      `[figure] SIGKILL → all ${RUNS} in-flight runs resumed on another worker: ${resumedMs} ms, completed: ${completedMs} ms`,
    );
    await expectFinishedElsewhere(runs, first);
  });
});

describe('when a worker shutting down reaches the end of its grace period', () => {
  it('hands its runs back at once and another worker completes them', async () => {
    const { first, runs, release } = await runsInFlightOnOneWorker({ SHUTDOWN_GRACE_MS: '200' });
    const stoppedAt = Date.now();
    const { exited } = workers.terminate(first);
    release();
    expect(await exited).toBe(0);
    await Promise.all(runs.map((run) => run.result()));
    console.log(
      `[figure] SIGTERM (grace 200 ms) → all ${RUNS} handed-back runs completed elsewhere: ${Date.now() - stoppedAt} ms`,
    );
    await expectFinishedElsewhere(runs, first);
  });
});
