/**
 * Two tenants on one client (`client.forTenant`) and one Redis: neither can read, cancel,
 * append to or collide with the other's runs and conversations, and the client without a tenant
 * sees neither. A real worker on the test's Redis executes the runs.
 */
import { randomUUID } from 'node:crypto';
import { InvalidTenantError, RunNotFoundError } from '@flotilla/runtime';
import { createClient, type StreamedRunEvent } from '@flotilla/runtime/client';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { useSecurityWorker } from './fixtures/use-security-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useSecurityWorker(redis);
const acme = () => fixture.client.forTenant('acme');
const globex = () => fixture.client.forTenant('globex');

describe('the same run id in two tenants', () => {
  it('names two runs: each tenant gets its own result, record and events', async () => {
    const runId = `shared-${randomUUID()}`;
    const first = await acme().submit('echo', { from: 'acme' }, { runId });
    const second = await globex().submit('echo', { from: 'globex' }, { runId });
    expect([first.id, second.id]).toEqual([runId, runId]);
    expect(await first.result()).toEqual({ echoed: { from: 'acme' } });
    expect(await second.result()).toEqual({ echoed: { from: 'globex' } });
    expect(await acme().getRun(runId)).toMatchObject({ runId, tenant: 'acme', status: 'succeeded' });
    expect(await globex().getRun(runId)).toMatchObject({ runId, tenant: 'globex' });
    const events: StreamedRunEvent[] = [];
    for await (const event of acme().run(runId).events()) events.push(event);
    expect(events.every((event) => event.runId === runId)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', output: { echoed: { from: 'acme' } } });
  });

  it('is idempotent per tenant: a resubmit never conflicts with the other tenant', async () => {
    const runId = `idem-${randomUUID()}`;
    await acme().submit('echo', { n: 1 }, { runId });
    await expect(globex().submit('echo', { n: 2 }, { runId })).resolves.toMatchObject({ id: runId });
    await expect(acme().submit('echo', { n: 1 }, { runId })).resolves.toMatchObject({ id: runId });
  });
});

describe("another tenant's run", () => {
  it('is not found: not readable, not awaitable, not cancellable, not seen without a tenant', async () => {
    const runId = `private-${randomUUID()}`;
    const run = await acme().submit('slow', {}, { runId });
    await waitUntil(async () => ((await acme().getRun(runId))?.status === 'running' ? true : undefined), {
      what: 'the slow run to start',
    });
    expect(await globex().getRun(runId)).toBeUndefined();
    expect(await fixture.client.getRun(runId)).toBeUndefined();
    await expect(globex().cancel(runId)).rejects.toSatisfy(RunNotFoundError.is);
    await expect(fixture.client.cancel(runId)).rejects.toSatisfy(RunNotFoundError.is);
    await expect(globex().run(runId).result()).rejects.toSatisfy(RunNotFoundError.is);
    // Still running: the refused cancels did nothing. Its own tenant can cancel it.
    expect(await acme().getRun(runId)).toMatchObject({ status: 'running' });
    await acme().cancel(runId);
    await expect(run.result()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('of no tenant is not found by a tenant either', async () => {
    const run = await fixture.client.submit('echo', { n: 1 });
    await run.result();
    expect(await acme().getRun(run.id)).toBeUndefined();
    await expect(acme().cancel(run.id)).rejects.toSatisfy(RunNotFoundError.is);
  });
});

describe('the same conversation id in two tenants', () => {
  it('names two conversations: neither tenant reads or appends to the other', async () => {
    const conversationId = `conv-${randomUUID()}`;
    const first = await acme().submit('chat', { message: 'acme secret' }, { conversationId });
    expect(await first.result()).toBe('reply to "acme secret" (user messages seen: 1)');
    // Globex on the same id starts a conversation of its own: it does not see acme's turn …
    const second = await globex().submit('chat', { message: 'hello' }, { conversationId });
    expect(await second.result()).toBe('reply to "hello" (user messages seen: 1)');
    // … and did not append to acme's.
    const third = await acme().submit('chat', { message: 'again' }, { conversationId });
    expect(await third.result()).toBe('reply to "again" (user messages seen: 2)');
    const texts = async (client: ReturnType<typeof acme>) =>
      (await client.getConversation(conversationId))?.messages.map((message) => message.content);
    expect(await texts(acme())).toEqual([
      'acme secret',
      'reply to "acme secret" (user messages seen: 1)',
      'again',
      'reply to "again" (user messages seen: 2)',
    ]);
    expect(await texts(globex())).toEqual(['hello', 'reply to "hello" (user messages seen: 1)']);
    expect((await acme().getConversation(conversationId))?.header.conversationId).toBe(conversationId);
    expect(await fixture.client.getConversation(conversationId)).toBeUndefined();
    expect(await acme().getRun(third.id)).toMatchObject({ conversationId });
  });
});

describe("a tenant's run tree", () => {
  it('keeps the tenant: the child runs in it and agent code reads it with runInfo()', async () => {
    const runId = `tree-${randomUUID()}`;
    const run = await acme().submit('sec-parent', { value: 7 }, { runId });
    const output = (await run.result()) as { child: { runId: string }; self: unknown };
    expect(output.self).toEqual({ runId, tenant: 'acme' });
    expect(output.child).toMatchObject({ value: 7, tenant: 'acme' });
    expect(output.child.runId.startsWith(`${runId}.`)).toBe(true);
    expect(await acme().getRun(output.child.runId)).toMatchObject({
      tenant: 'acme',
      parentRunId: runId,
      rootRunId: runId,
      status: 'succeeded',
    });
    expect(await globex().getRun(output.child.runId)).toBeUndefined();
  });

  it('of no tenant reads no tenant', async () => {
    const run = await fixture.client.submit('sec-info', { value: 1 });
    expect(await run.result()).toEqual({ value: 1, runId: run.id, tenant: undefined });
  });
});

describe('a tenant view', () => {
  it('shares the connections: closing it leaves its client open', async () => {
    const view = acme();
    await view.close();
    const run = await fixture.client.submit('echo', { still: 'open' });
    expect(await run.result()).toEqual({ echoed: { still: 'open' } });
    expect((await view.submit('echo', { view: 'too' })).id).toBeTypeOf('string');
  });

  it.each(['', 'has space', 'a~b', 'a.b', 'x'.repeat(65), 'ünï'])('refuses the tenant name %j', (tenant) => {
    expect(() => fixture.client.forTenant(tenant)).toThrow(
      expect.objectContaining({ name: InvalidTenantError.errorName }),
    );
    expect(() => createClient({ connection: redis.url, prefix: redis.prefix, tenant })).toThrow(
      expect.objectContaining({ name: 'InvalidTenantError' }),
    );
  });

  it('never widens: a view of one tenant gives no view of another', () => {
    expect(acme().forTenant('acme').tenant).toBe('acme');
    expect(() => acme().forTenant('globex')).toThrow(expect.objectContaining({ name: 'InvalidTenantError' }));
  });

  it('of createClient({ tenant }) is the same tenant as forTenant', async () => {
    const client = createClient({ connection: redis.url, prefix: redis.prefix, tenant: 'acme' });
    try {
      const runId = `created-${randomUUID()}`;
      await (await client.submit('echo', { n: 1 }, { runId })).result();
      expect(client.tenant).toBe('acme');
      expect(await acme().getRun(runId)).toMatchObject({ tenant: 'acme', status: 'succeeded' });
    } finally {
      await client.close();
    }
  });
});
