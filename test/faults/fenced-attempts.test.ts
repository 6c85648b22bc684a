/**
 * Fenced attempts under a frozen Redis (issue 10 part 1): two worker processes with 2 s locks
 * execute runs when their private `redis-server` is paused (SIGSTOP) for 15 s, far past every
 * lock. Once it resumes, the runs' jobs are taken over by new attempts. The attempt that lost
 * its lock must have stopped (no tool of one run executing in two attempts at once), none of
 * its writes may land after the newer attempt started (journal), and every run ends once, with
 * the right output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { runKeys } from '@flotilla/runtime/internals';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerProcess, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { overlaps, readFenceLog } from './fence-log.js';

const PROGRAM = fileURLToPath(new URL('./fixtures/fence-worker.ts', import.meta.url));
const PREFIX = 'fence';
const RUNS = 6;
const STEPS = 6;
const PAUSE_MS = 15_000;

let server: RedisServerProcess;
let redis: Redis;
let dir: string;
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url);
  dir = mkdtempSync(join(tmpdir(), 'flotilla-fence-'));
  workers = new WorkerProcesses(PROGRAM, {
    REDIS_URL: server.url,
    FLOTILLA_PREFIX: PREFIX,
    LOG_DIR: dir,
    STEPS: String(STEPS),
    STEP_MS: '400',
    CONCURRENCY: String(RUNS),
    LOCK_DURATION_MS: '2000',
    STALLED_INTERVAL_MS: '1000',
  });
  await Promise.all([workers.start(), workers.start()]);
  // Patient: result() waits through the pause.
  client = createClient({ connection: server.url, prefix: PREFIX, requestTimeoutMs: 60_000 });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
  redis?.disconnect();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('when Redis pauses far past the job locks while runs execute', () => {
  it('stops the attempts that lost their lock: no run executes twice at once, no stale write lands, each run ends once', async () => {
    const runs = await Promise.all(
      Array.from({ length: RUNS }, () => client.submit('fenced', { steps: STEPS })),
    );
    // Every run is past its first step (so it holds journal entries) and executes the next.
    await waitUntil(
      async () => {
        const done = new Set(readFenceLog(dir).work.map((line) => line.runId));
        return runs.every((run) => done.has(run.id)) || undefined;
      },
      { what: 'a first step of every run' },
    );
    server.signal('SIGSTOP');
    await sleep(PAUSE_MS);
    server.signal('SIGCONT');

    const outputs = await Promise.all(runs.map((run) => run.result()));
    expect(outputs).toEqual(runs.map(() => `done after ${STEPS} steps`));

    const log = readFenceLog(dir);
    expect(overlaps(log.work)).toEqual([]);
    for (const run of runs) {
      const attempts = log.attempts.filter((line) => line.runId === run.id);
      // Every run was taken over by a newer attempt after the pause.
      expect(attempts.length, `attempts of ${run.id}`).toBeGreaterThanOrEqual(2);
      expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: attempts.length });

      // Each journalled step was produced while its attempt still owned the run.
      const journal = await redis.hgetall(runKeys(PREFIX, run.id).journal);
      const steps = Object.values(journal)
        .map((text) => JSON.parse(text) as { kind: string; outcome: { value?: { by?: string } } })
        .filter((entry) => entry.kind === 'tool');
      expect(steps).toHaveLength(STEPS);
      for (const entry of steps) {
        const [pid, attempt] = String(entry.outcome.value?.by).split(':').map(Number);
        const produced = log.work.find(
          (line) => line.runId === run.id && line.pid === pid && line.attempt === attempt && !line.aborted,
        );
        expect(produced, `the execution that produced ${entry.outcome.value?.by}`).toBeDefined();
        const newer = attempts.filter(
          (line) => line.attempt > (attempt ?? 0) && line.at < (produced?.end ?? 0),
        );
        expect(newer, `attempts of ${run.id} newer than ${attempt} before its step was done`).toEqual([]);
      }

      // One run-end; no tool result of a stopped attempt (its aborted tool), none after its successor started.
      const events = [];
      for await (const event of run.events()) events.push(event);
      expect(events.filter((event) => event.type === 'run-end')).toHaveLength(1);
      const results = events.flatMap((event) =>
        event.type === 'tool-result' && !event.replayed ? [event] : [],
      );
      expect(results.filter((event) => !event.ok)).toEqual([]);
      for (const event of results) {
        const attempt = Number(String((event.result as { by?: string } | undefined)?.by).split(':')[1]);
        const newer = attempts.filter((line) => line.attempt > attempt && line.at < event.at);
        expect(newer, `attempts newer than ${attempt} before its tool result`).toEqual([]);
      }
    }
    const retaken = log.attempts.filter((line) => line.attempt > 1).length;
    console.log(
      `[figure] fenced attempts: ${RUNS} runs, ${retaken} takeovers after a ${PAUSE_MS} ms Redis pause`,
    );
  });
});
