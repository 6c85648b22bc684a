/**
 * Crash recovery across real processes: a worker is killed with SIGKILL in the middle of a
 * multi-turn run with tool calls (while its step-2 tool is executing); the other worker takes
 * the stalled job over and finishes the run. Counters kept in Redis by the fixtures prove that
 * no completed model turn and no completed tool execution ran twice: only the tool that was
 * mid-execution at the kill ran again (at-least-once, ARCHITECTURE.md §2).
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { RunStalledError } from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunEvent } from '@flotilla/runtime/client';
import { runKeys } from '@flotilla/runtime/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { expectRunKeysToExpire } from '../support/run-key-expiry.js';
import { waitForKey } from '../support/wait-for-key.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { stepperKeys } from './fixtures/stepper-agent.js';

const redis = useRedis(import.meta.filename);
const workerProgram = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));
const STEPS = 4;
let workers: WorkerProcesses;
let client: FlotillaClient;

/** Arms the step-2 hang, submits a stepper run, and SIGKILLs the worker that hangs. */
async function submitAndKillMidRun(runClient: FlotillaClient, prefix: string, remember = false) {
  const keys = stepperKeys(prefix);
  await redis.redis.set(keys.hangArmed, '1');
  const run = await runClient.submit('stepper', { steps: STEPS, remember });
  await workers.kill(Number(await waitForKey(redis.redis, keys.hungProcess)));
  return run;
}

beforeAll(async () => {
  workers = new WorkerProcesses(workerProgram, {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    STEPS: String(STEPS),
  });
  await Promise.all([workers.start(), workers.start()]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

describe('when a worker is killed in the middle of a run', () => {
  it('lets another worker finish it without repeating completed turns or tool executions', async () => {
    const keys = stepperKeys(redis.prefix);
    const run = await submitAndKillMidRun(client, redis.prefix);

    expect(await run.result()).toBe(`done after ${STEPS} steps`);

    // STEPS tool-calling turns + 1 final turn; turns 1 and 2 finished before the kill and were
    // replayed from the journal, not asked again.
    expect(Number(await redis.redis.get(keys.modelCalls))).toBe(STEPS + 1);
    for (let step = 1; step <= STEPS; step++) {
      expect(Number(await redis.redis.get(keys.completed(step))), `step ${step} completions`).toBe(1);
    }
    expect(Number(await redis.redis.get(keys.started(1)))).toBe(1);
    expect(Number(await redis.redis.get(keys.started(2)))).toBe(2); // the one that was mid-execution
    expect(Number(await redis.redis.get(keys.started(3)))).toBe(1);

    const record = await client.getRun(run.id);
    expect(record).toMatchObject({ status: 'succeeded', attempts: 2, modelCalls: STEPS - 1 });

    const events: RunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    const turnEnds = events.filter((event) => event.type === 'model-turn-end');
    expect(turnEnds.filter((event) => event.replayed)).toHaveLength(2);
    expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'run-end')).toHaveLength(1);
  });
});

describe('when a worker dies right after a model turn, before its record was written', () => {
  it('replays the run elsewhere: the model is asked again, the tool does not run twice, the events tell one story', async () => {
    // A prefix of its own, so the dying worker surely gets the run.
    const prefix = `${redis.prefix}-answer`;
    const keys = stepperKeys(prefix);
    const dying = await workers.start({ FLOTILLA_PREFIX: prefix, STEPS: '1', EXIT_AFTER_ANSWER: '1' });
    const answerClient = createClient({ connection: redis.url, prefix });
    try {
      const exited = once(dying, 'exit');
      const run = await answerClient.submit('stepper', { steps: 1 });
      await exited;
      await workers.start({ FLOTILLA_PREFIX: prefix, STEPS: '1' });
      expect(await run.result()).toBe('done after 1 steps');

      // The first turn (asking for the tool) was stored before the tool ran: replayed. The last
      // one rode with the run's next write, lost with the process: asked again.
      expect(Number(await redis.redis.get(keys.modelCalls))).toBe(3);
      expect(Number(await redis.redis.get(keys.started(1)))).toBe(1);
      expect(Number(await redis.redis.get(keys.completed(1)))).toBe(1);
      expect(await answerClient.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 2 });

      const events: RunEvent[] = [];
      for await (const event of run.events()) events.push(event);
      // No event claims the lost answer: each turn's live answer is told once, the first turn's
      // replay is marked, and run-end comes last.
      const answers = events.flatMap((event) =>
        event.type === 'model-turn-end' && !event.replayed ? [event.position] : [],
      );
      expect(new Set(answers).size).toBe(2);
      expect(answers).toHaveLength(2);
      expect(events.filter((event) => event.type === 'model-turn-end' && event.replayed)).toHaveLength(1);
      expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
      expect(events.map((event) => event.type).indexOf('run-end')).toBe(events.length - 1);
    } finally {
      await answerClient.close();
    }
  });
});

describe('when a run stalls more often than maxStalledCount allows', () => {
  it('fails the run with RunStalledError instead of leaving it running forever', async () => {
    const prefix = `${redis.prefix}-stall`;
    const env = { FLOTILLA_PREFIX: prefix, MAX_STALLED_COUNT: '0' };
    await Promise.all([workers.start(env), workers.start(env)]);
    const stallClient = createClient({ connection: redis.url, prefix });
    try {
      const run = await submitAndKillMidRun(stallClient, prefix, true);
      // The killed attempt stored memory before it hung.
      expect(await redis.redis.exists(runKeys(prefix, run.id).memoryIndex)).toBe(1);
      const error = await run.result().catch((caught: unknown) => caught);
      expect(RunStalledError.is(error)).toBe(true);
      expect(await stallClient.getRun(run.id)).toMatchObject({
        status: 'failed',
        error: { name: 'RunStalledError' },
      });
      // Ended by the stalled-job handler, not by an attempt: its memory is deleted all the same
      // and no key of it is left without an expiry.
      expect(await redis.redis.keys(`${prefix}:run:{r:${run.id}}:memory*`)).toEqual([]);
      await expectRunKeysToExpire(redis.redis, prefix, [run.id]);
    } finally {
      await stallClient.close();
    }
  });
});

describe('when a worker gets SIGTERM with a run in flight', () => {
  it('finishes the run on that worker, then exits with code 0', async () => {
    // A worker of its own prefix, so it surely gets the run.
    const prefix = `${redis.prefix}-drain`;
    const keys = stepperKeys(prefix);
    await workers.start({ FLOTILLA_PREFIX: prefix });
    const drainClient = createClient({ connection: redis.url, prefix });
    try {
      await redis.redis.set(keys.pauseArmed, '1');
      const run = await drainClient.submit('stepper', { steps: STEPS });
      const pid = Number(await waitForKey(redis.redis, keys.pausedProcess));
      const { stopping, exited } = workers.terminate(pid);
      await stopping;
      // The step-2 tool waits for `resume`: the run is active while the worker closes.
      expect(await drainClient.getRun(run.id)).toMatchObject({ status: 'running', attempts: 1 });
      await redis.redis.set(keys.resume, '1');
      expect(await exited).toBe(0);
      expect(await run.result()).toBe(`done after ${STEPS} steps`);
      expect(await drainClient.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
      for (let step = 1; step <= STEPS; step++)
        expect(Number(await redis.redis.get(keys.started(step))), `step ${step} starts`).toBe(1);
    } finally {
      await redis.redis.set(keys.resume, '1');
      await drainClient.close();
    }
  });

  it('closes idle workers gracefully too', async () => {
    const codes = await workers.stop();
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code === 0)).toBe(true);
  });
});
