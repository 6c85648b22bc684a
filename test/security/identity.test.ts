/**
 * Run identity against a client that acts as an attacker would: planted child results, a run id
 * reused with other content, and ids that break keys, BullMQ or paths. A real worker on the
 * test's Redis executes the runs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ForeignChildRunError, InvalidSubmitRequestError, RunIdConflictError } from '@flotilla/runtime';
import { createClient, type SubmitOptions } from '@flotilla/runtime/client';
import { runKeys } from '@flotilla/runtime/internals';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { useSecurityWorker } from './fixtures/use-security-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useSecurityWorker(redis);

/** Every key under `prefix`. */
async function keysUnder(prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

describe('a planted child result', () => {
  /** The id the first child of a `sec-parent` run gets, read from a run that really made one. */
  async function firstChildIdOf(rootRunId: string): Promise<string> {
    const run = await fixture.client.submit('sec-parent', { value: 'real' }, { runId: rootRunId });
    await run.result();
    const [childRunId] = await redis.redis.smembers(runKeys(redis.prefix, rootRunId).children);
    if (!childRunId) throw new Error('the parent made no child run');
    return childRunId;
  }

  it('cannot be submitted: ids in the child-id namespace are refused', async () => {
    const childRunId = await firstChildIdOf(`parent-${randomUUID()}`);
    const planted = fixture.client.submit('sec-info', { value: 'planted' }, { runId: childRunId });
    await expect(planted).rejects.toSatisfy(InvalidSubmitRequestError.is);
    await expect(planted).rejects.toThrow(/child run ids/);
  });

  it('is never adopted: a run the parent did not create at its child id fails the parent', async () => {
    // An attacker reads the layout from a run of their own: the child's callPath …
    const sample = `sample-${randomUUID()}`;
    const sampleChild = await firstChildIdOf(sample);
    const callPath = (await fixture.client.getRun(sampleChild))?.callPath ?? '';
    expect(childIdOf(sample, callPath)).toBe(sampleChild);
    // … computes the child id of a victim's tree before it is submitted, and plants a finished
    // run there, as an older client or anyone writing to Redis could.
    const victim = `victim-${randomUUID()}`;
    const plantedId = childIdOf(victim, callPath);
    await redis.redis.hset(runKeys(redis.prefix, plantedId).record, {
      runId: plantedId,
      agentId: 'sec-info',
      status: 'succeeded',
      output: JSON.stringify({ value: 'planted' }),
      createdAt: Date.now(),
      attempts: 1,
      modelCalls: 0,
    });
    const run = await fixture.client.submit('sec-parent', { value: 'real' }, { runId: victim });
    const error = await run.result().catch((caught: unknown) => caught);
    expect(ForeignChildRunError.is(error)).toBe(true);
    expect(error).toMatchObject({ childRunId: plantedId, parentRunId: victim });
    expect(await fixture.client.getRun(victim)).toMatchObject({
      status: 'failed',
      error: { name: 'ForeignChildRunError' },
    });
  });
});

describe('a child record left by a parent that crashed before the job', () => {
  /** The record the parent writes before the child's job, as a crash would leave it. */
  async function leaveRecord(rootRunId: string, fields: Record<string, string | number>): Promise<string> {
    const sample = `sample-${randomUUID()}`;
    const run = await fixture.client.submit('sec-parent', { value: 'real' }, { runId: sample });
    await run.result();
    const [sampleChild] = await redis.redis.smembers(runKeys(redis.prefix, sample).children);
    const callPath = (await fixture.client.getRun(sampleChild ?? ''))?.callPath ?? '';
    const childRunId = childIdOf(rootRunId, callPath);
    await redis.redis.hset(runKeys(redis.prefix, childRunId).record, {
      runId: childRunId,
      agentId: 'sec-info',
      parentRunId: rootRunId,
      rootRunId,
      callPath,
      createdAt: Date.now(),
      attempts: 0,
      modelCalls: 0,
      ...fields,
    });
    return childRunId;
  }

  it('is enqueued by the next execution when still queued, and runs once', async () => {
    const rootRunId = `crashed-${randomUUID()}`;
    const childRunId = await leaveRecord(rootRunId, { status: 'queued' });
    const run = await fixture.client.submit('sec-parent', { value: 'real' }, { runId: rootRunId });
    const output = (await run.result()) as { child: { value: unknown; runId: string } };
    expect(output.child).toMatchObject({ value: 'real', runId: childRunId });
    expect(await redis.redis.smembers(runKeys(redis.prefix, rootRunId).children)).toEqual([childRunId]);
    expect(await fixture.client.getRun(childRunId)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('is adopted without a job when it already ended (the crash came after its job)', async () => {
    const rootRunId = `crashed-${randomUUID()}`;
    await leaveRecord(rootRunId, {
      status: 'succeeded',
      output: JSON.stringify({ value: 'ran before the crash' }),
      attempts: 1,
    });
    const run = await fixture.client.submit('sec-parent', { value: 'real' }, { runId: rootRunId });
    const output = (await run.result()) as { child: { value: unknown } };
    expect(output.child).toEqual({ value: 'ran before the crash' });
    expect(await redis.redis.smembers(runKeys(redis.prefix, rootRunId).children)).toEqual([]);
  });
});

/** `children/child-run-id.ts`, as an attacker recomputes it: first attempt of a root's child. */
function childIdOf(rootRunId: string, callPath: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([rootRunId, callPath, 0]))
    .digest('hex');
  return `${rootRunId}.${hash.slice(0, 16)}`;
}

describe('a run id reused', () => {
  const base = {
    agent: 'echo',
    input: { n: 1 } as unknown,
    options: { conversationId: 'conv-a', scope: [{ team: 'a' }], timeoutMs: 600_000 } as SubmitOptions,
  };

  it('with the same submission is the same run, even with keys in another order', async () => {
    const runId = `same-${randomUUID()}`;
    const first = await fixture.client.submit(base.agent, { a: 1, b: 2 }, { ...base.options, runId });
    const again = await fixture.client.submit(base.agent, { b: 2, a: 1 }, { runId, ...base.options });
    expect(again.id).toBe(first.id);
    expect(await again.result()).toEqual({ echoed: { a: 1, b: 2 } });
  });

  it.each([
    ['the agent', { agent: 'sec-info' }],
    ['the input', { input: { n: 2 } }],
    ['the conversation', { options: { ...base.options, conversationId: 'conv-b' } }],
    ['no conversation', { options: { scope: base.options.scope, timeoutMs: 600_000 } }],
    ['the scope', { options: { ...base.options, scope: [{ team: 'b' }] } }],
    ['the timeout', { options: { ...base.options, timeoutMs: 600_001 } }],
  ])(
    'with %s changed fails with RunIdConflictError and leaves the first run as it was',
    async (_field, change) => {
      const runId = `reuse-${randomUUID()}`;
      const first = await fixture.client.submit(base.agent, base.input, { ...base.options, runId });
      await first.result();
      const other = { ...base, ...change };
      const reuse = fixture.client.submit(other.agent, other.input, { ...other.options, runId });
      await expect(reuse).rejects.toSatisfy(RunIdConflictError.is);
      await expect(reuse).rejects.toMatchObject({ runId });
      expect(await fixture.client.getRun(runId)).toMatchObject({
        agentId: 'echo',
        status: 'succeeded',
        output: { echoed: { n: 1 } },
        conversationId: 'conv-a',
      });
    },
  );
});

describe('an odd id', () => {
  const oddIds = [
    ['a colon', 'a:b'],
    ['a star', 'runs*'],
    ['an opening brace', '{r:x'],
    ['a closing brace', 'x}'],
    ['a dot alone', '.'],
    ['two dots', '..'],
    ['a newline', 'a\nb'],
    ['a control character', 'a\u0007b'],
    ['unicode letters', 'ünïcödé'],
    ['10 kB', 'x'.repeat(10 * 1024)],
    ['the empty string', ''],
  ];
  const prefix = () => `${redis.prefix}-odd`;

  it.each(oddIds)(
    'with %s is refused as run, conversation and agent id, and leaves no key',
    async (_what, id) => {
      const client = createClient({ connection: redis.url, prefix: prefix() });
      try {
        const refused = [
          client.submit('echo', {}, { runId: id }),
          client.submit('echo', {}, { conversationId: id }),
          client.submit(id, {}),
          client.forTenant('acme').submit('echo', {}, { runId: id }),
        ];
        for (const submission of refused)
          await expect(submission).rejects.toSatisfy(InvalidSubmitRequestError.is);
        // Reads and cancel treat it as what it is: nothing that exists.
        expect(await client.getRun(id)).toBeUndefined();
        expect(await client.getConversation(id)).toBeUndefined();
        await expect(client.cancel(id)).rejects.toSatisfy(
          (error) => (error as Error).name === 'RunNotFoundError',
        );
        await expect(client.run(id).result()).rejects.toSatisfy(
          (error) => (error as Error).name === 'RunNotFoundError',
        );
      } finally {
        await client.close();
      }
      expect(await keysUnder(prefix())).toEqual([]);
    },
  );

  it('of every allowed kind of character (letters, digits, `_`, `.`, `-`) runs end to end', async () => {
    const runId = `Ab_9.x-${randomUUID()}`;
    const run = await fixture.client.submit('echo', { ok: true }, { runId, conversationId: `c_1.${runId}` });
    expect(await run.result()).toEqual({ echoed: { ok: true } });
  });
});
