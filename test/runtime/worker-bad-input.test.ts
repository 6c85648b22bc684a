/**
 * A worker never falls over on bad jobs: an unknown agent, input that is not JSON, input over
 * `maxPayloadBytes`, a model answering garbage. Each fails its run with a typed error stored
 * for the client, and the same worker goes on serving the next run.
 */
import { randomUUID } from 'node:crypto';
import {
  InvalidModelResponseError,
  InvalidRunInputError,
  PayloadTooLargeError,
  UnknownAgentError,
} from '@flotilla/runtime';
import type { FlotillaClient } from '@flotilla/runtime/client';
import { encodeRunJobData } from '@flotilla/runtime/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../support/failure-of.js';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { EchoAgent } from './fixtures/agents.js';
import { useWorker } from './fixtures/in-process-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useWorker(redis, { maxPayloadBytes: 1024 });
let rawQueue: FleetQueues;

beforeAll(() => {
  // A producer that does not go through the client, as a misbehaving service would.
  rawQueue = new FleetQueues(redis.connect(), redis.prefix);
});
afterAll(async () => {
  await rawQueue.close();
});

async function stillServes(client: FlotillaClient): Promise<void> {
  const run = await client.submit(EchoAgent, { after: 'bad input' });
  expect(await run.result()).toEqual({ echoed: { after: 'bad input' } });
}

describe('when a job names an agent the worker does not serve', () => {
  it('fails the run with UnknownAgentError listing the known agents, and keeps serving', async () => {
    // Only a raw job can do it: put in a served agent's queue under another agent's name.
    const runId = `raw-${randomUUID()}`;
    await rawQueue.queue('echo').add('no-such-agent', encodeRunJobData({}, {}), { jobId: runId });
    const error = await waitForFailure(fixture.client, runId);
    expect(UnknownAgentError.is(error)).toBe(true);
    expect(error).toMatchObject({
      agentId: 'no-such-agent',
      knownAgentIds: expect.arrayContaining(['echo', 'chat']),
    });
    expect(await fixture.client.getRun(runId)).toMatchObject({
      status: 'failed',
      error: { name: 'UnknownAgentError' },
    });
    await stillServes(fixture.client);
  });
});

describe('when the input is not JSON', () => {
  it('fails the run with InvalidRunInputError, and keeps serving', async () => {
    const runId = `raw-${randomUUID()}`;
    await rawQueue.queue('echo').add('echo', { input: '{"unterminated": ' }, { jobId: runId });
    const error = await waitForFailure(fixture.client, runId);
    expect(InvalidRunInputError.is(error)).toBe(true);
    expect((error as Error).message).toContain('not JSON');
    await stillServes(fixture.client);
  });

  it('fails a job whose data has no input text at all', async () => {
    const runId = `raw-${randomUUID()}`;
    await rawQueue.queue('echo').add('echo', { something: 'else' }, { jobId: runId });
    expect(InvalidRunInputError.is(await waitForFailure(fixture.client, runId))).toBe(true);
  });
});

describe('when the input is larger than maxPayloadBytes', () => {
  it('fails the run with PayloadTooLargeError giving both sizes, and keeps serving', async () => {
    const run = await fixture.client.submit(EchoAgent, { blob: 'x'.repeat(2000) });
    const error = await failureOf(fixture.client.run(run.id));
    expect(PayloadTooLargeError.is(error)).toBe(true);
    expect(error).toMatchObject({ maxBytes: 1024 });
    expect((error as PayloadTooLargeError).bytes).toBeGreaterThan(2000);
    await stillServes(fixture.client);
  });
});

describe('when the model answers garbage', () => {
  it('fails the run with a named error stored for the client, and keeps serving', async () => {
    const run = await fixture.client.submit('garbage', {});
    const error = await failureOf(fixture.client.run(run.id));
    // A Flotilla error a user can catch by name, not a crash inside the runtime (a TypeError).
    expect(error).toSatisfy(InvalidModelResponseError.is);
    const record = await fixture.client.getRun(run.id);
    expect(record?.status).toBe('failed');
    expect(record?.error?.name).toBe((error as Error).name);
    expect(record?.error?.message.length).toBeGreaterThan(0);
    await stillServes(fixture.client);
  });
});

it('builds job data the worker reads back', () => {
  expect(encodeRunJobData({ a: 1 }, { conversationId: 'c' })).toEqual({
    input: '{"a":1}',
    conversationId: 'c',
  });
});

/** A raw job has no record until a worker starts it, so wait on its events. */
async function waitForFailure(client: FlotillaClient, runId: string): Promise<unknown> {
  await waitUntil(() => client.getRun(runId), { what: `the record of run "${runId}"` });
  return failureOf(client.run(runId));
}
