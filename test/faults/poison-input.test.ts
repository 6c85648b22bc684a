/**
 * Poison input never kills a worker (issue 9 §1). A real worker process, run under
 * `--unhandled-rejections=strict` (any unhandled rejection ends it), gets values nested 5,000
 * levels deep — deeper than JSON.stringify can write — in a run's input (enqueued directly, and
 * through `client.submit`), in the tool-call arguments a model returns, and in a tool's output;
 * and malformed tool calls from an OpenAI-compatible server. Each run ends `failed` with a
 * named error (or, for tool output, the model sees a tool error), `result()` rejects with it,
 * and the same process then completes a normal run. At the end the process is still alive.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { InvalidModelResponseError, InvalidRunInputError, ValueTooDeepError } from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunEvent } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../support/failure-of.js';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';

/** Levels of the poison values, as the worker's fixture server sends them. */
const DEEP = 5000;
const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/poison-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;
let rawQueue: FleetQueues;

beforeAll(async () => {
  workers = new WorkerProcesses(program, {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--unhandled-rejections=strict'].filter(Boolean).join(' '),
  });
  await workers.start();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  // A producer that does not go through the client, as a misbehaving service would.
  rawQueue = new FleetQueues(redis.connect(), redis.prefix);
});

afterAll(async () => {
  await rawQueue?.close();
  await client?.close();
  await workers?.stop();
});

/** `{"next":{"next":…}}` as text, `levels` deep. */
function nestedText(levels: number): string {
  return `${'{"next":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;
}

/** A raw job has no record until a worker starts it. */
function recordOf(runId: string) {
  return waitUntil(() => client.getRun(runId), { what: `the record of run "${runId.slice(0, 40)}"` });
}

async function stillServes(): Promise<void> {
  const run = await client.submit('chat', { message: 'hello after poison' });
  expect(await run.result()).toBe('ok: hello after poison');
  expect(workers.processes[0]?.exitCode).toBeNull();
}

describe('poison input', () => {
  it(`fails a job whose input is nested ${DEEP} levels with ValueTooDeepError, and keeps serving`, async () => {
    const runId = `raw-${randomUUID()}`;
    await rawQueue.queue('echo').add('echo', { input: nestedText(DEEP) }, { jobId: runId });
    await recordOf(runId);
    const error = await failureOf(client.run(runId));
    expect(ValueTooDeepError.is(error)).toBe(true);
    expect(error).toMatchObject({ source: 'the run input', maxDepth: 128 });
    expect(await client.getRun(runId)).toMatchObject({
      status: 'failed',
      error: { name: 'ValueTooDeepError' },
    });
    await stillServes();
  });

  it('fails a job with a 5 MB conversation id with InvalidRunInputError, and keeps serving', async () => {
    const runId = `raw-${randomUUID()}`;
    await rawQueue
      .queue('echo')
      .add('echo', { input: '{}', conversationId: 'c'.repeat(5_000_000) }, { jobId: runId });
    await recordOf(runId);
    const error = await failureOf(client.run(runId));
    expect(InvalidRunInputError.is(error)).toBe(true);
    expect((error as Error).message).toContain('`conversationId` is invalid: expected 1 to 200');
    await stillServes();
  });

  it('fails a job whose name is not an agent id with InvalidRunInputError, keeping the name out of the record', async () => {
    const runId = `raw-${randomUUID()}`;
    // In a served agent's queue: only there does a worker take it.
    await rawQueue.queue('echo').add(`agent {${'x'.repeat(10_000)}}`, { input: '{}' }, { jobId: runId });
    await recordOf(runId);
    const error = await failureOf(client.run(runId));
    expect(InvalidRunInputError.is(error)).toBe(true);
    expect((error as Error).message).toContain('the job name is not a valid agent id');
    expect(await client.getRun(runId)).toMatchObject({ status: 'failed', agentId: '' });
    await stillServes();
  });

  it('fails a job whose id is not a run id without writing a record named after it, and keeps serving', async () => {
    const jobId = `raw-${'x'.repeat(1000)}`;
    const job = await rawQueue.queue('echo').add('echo', { input: '{}' }, { jobId });
    // Ended jobs are removed (the run record is the source of truth), so 'unknown' means it ended.
    const state = await waitUntil(
      async () => {
        const current = await job.getState();
        return ['completed', 'failed', 'unknown'].includes(current) ? current : undefined;
      },
      { what: 'the end of the job with an invalid id' },
    );
    expect(state).not.toBe('completed');
    expect(await client.getRun(jobId)).toBeUndefined();
    await stillServes();
  });

  it('refuses deep input at client.submit before anything is written', async () => {
    const runId = `submit-${randomUUID()}`;
    const input = JSON.parse(nestedText(DEEP));
    const error = await client.submit('echo', input, { runId }).then(
      () => new Error('expected submit to throw'),
      (thrown: unknown) => thrown,
    );
    expect(ValueTooDeepError.is(error)).toBe(true);
    expect(await client.getRun(runId)).toBeUndefined();
    expect(await rawQueue.getJob(runId)).toBeUndefined();
  });
});

describe('poison model output', () => {
  it(`fails the run when the model's tool-call arguments are nested ${DEEP} levels, and keeps serving`, async () => {
    const run = await client.submit('chat', { message: 'deep-args' });
    const error = await failureOf(client.run(run.id));
    expect(ValueTooDeepError.is(error)).toBe(true);
    expect((error as ValueTooDeepError).source).toBe(
      'the arguments of tool call "call-1" (probe) from model "local"',
    );
    const events: RunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    expect(events.at(-1)).toMatchObject({
      type: 'run-end',
      status: 'failed',
      error: { name: 'ValueTooDeepError' },
    });
    await stillServes();
  });

  it.each([
    ['a tool call without `function`', 'no-function', '`message.tool_calls.0.function` must be an object'],
    ['`tool_calls` that is not an array', 'not-an-array', '`message.tool_calls` must be an array'],
  ])(
    'fails the run with InvalidModelResponseError on %s, and keeps serving',
    async (_what, message, problem) => {
      const run = await client.submit('chat', { message });
      const error = await failureOf(client.run(run.id));
      expect(InvalidModelResponseError.is(error)).toBe(true);
      expect(error).toMatchObject({ modelId: 'local', provider: 'openai' });
      expect((error as Error).message).toContain(problem);
      await stillServes();
    },
  );

  it(`turns a tool output nested ${DEEP} levels into a tool error the model sees`, async () => {
    const run = await client.submit('chat', { message: 'deep-output' });
    const output = await run.result();
    expect(output).toContain('tool said:');
    expect(output).toContain('ValueTooDeepError');
    expect(output).toContain('The output of tool \\"probe\\" is nested more than 128 levels deep');
    const events: RunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      ok: false,
      error: { name: 'ValueTooDeepError' },
    });
  });
});

it('never let a promise go unhandled: the strict worker process is still alive and exits cleanly', async () => {
  await stillServes();
  const [process] = workers.processes;
  expect(process?.exitCode).toBeNull();
  expect(process?.signalCode).toBeNull();
  expect(await workers.stop()).toEqual([0]);
});
