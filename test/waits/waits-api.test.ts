/**
 * Durable waits through the scheduler's HTTP API and the `flotilla` CLI, and the reliability
 * rules that apply to waiting runs: approve over HTTP, approve / reject / signal from the CLI,
 * cancel a waiting run, and a deadline that passes while a run waits.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../apps/support/http.js';
import { runFlotilla } from '../apps/support/run-flotilla.js';
import { useScheduler } from '../apps/support/use-scheduler.js';
import { failureOf } from '../support/failure-of.js';
import { useRedis } from '../support/redis.js';
import { expectRunKeysToExpire } from '../support/run-key-expiry.js';
import { useWaitFleet } from './fixtures/use-wait-fleet.js';

const redis = useRedis(import.meta.filename);
const scheduler = useScheduler(redis);
const fleet = useWaitFleet(redis);
const flotilla = (args: string[]) => runFlotilla(scheduler.url, args);

describe('approvals over HTTP', () => {
  it('POST /runs/:id/approvals/:callId approves, then refuses another answer and unknown calls', async () => {
    const run = await fleet.client.submit<string>('mailer', { to: 'http' });
    await fleet.waitingOn(run.id, 'approval');
    const unknown = await call(scheduler.url, 'POST', `/runs/${run.id}/approvals/call_7`, {
      body: { approved: true },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { name: 'UnknownApprovalError' } });
    const malformed = await call(scheduler.url, 'POST', `/runs/${run.id}/approvals/call_1`, {
      body: { ok: 1 },
    });
    expect(malformed.status).toBe(400);
    const approved = await call(scheduler.url, 'POST', `/runs/${run.id}/approvals/call_1`, {
      body: { approved: true },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ runId: run.id, callId: 'call_1', outcome: 'answered' });
    const other = await call(scheduler.url, 'POST', `/runs/${run.id}/approvals/call_1`, {
      body: { approved: false },
    });
    expect(other.status).toBe(409);
    expect(await run.result()).toBe('results: sent to http');
  });
});

describe('the flotilla CLI', () => {
  it('approves, rejects and signals', async () => {
    const approved = await fleet.client.submit<string>('mailer', { to: 'cli' });
    const rejected = await fleet.client.submit<string>('mailer', { to: 'nope' });
    const listener = await fleet.client.submit<unknown[]>('listener', { name: 'go', count: 1 });
    await Promise.all([
      fleet.waitingOn(approved.id, 'approval'),
      fleet.waitingOn(rejected.id, 'approval'),
      fleet.waitingOn(listener.id, 'signal'),
    ]);

    const listed = await flotilla(['runs', 'list', '--status', 'waiting', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('"kind": "approval"');

    expect(
      (await flotilla(['approve', approved.id, 'call_1', '--args', '{"text":"cli@example.com"}'])).code,
    ).toBe(0);
    expect((await flotilla(['reject', rejected.id, 'call_1', '--reason', 'wrong person'])).code).toBe(0);
    const bad = await flotilla(['signal', listener.id, 'go', '{"value":"x"}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('InvalidSignalPayloadError');
    const sent = await flotilla(['signal', listener.id, 'go', '{"value":5}', '--id', 'cli-1']);
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ signalId: 'cli-1', duplicate: false });

    expect(await approved.result()).toBe('results: sent to cli@example.com');
    expect(await rejected.result()).toContain('wrong person');
    expect(await listener.result()).toEqual([{ value: 5 }]);
  });
});

describe('cancel and deadlines of waiting runs', () => {
  it('cancels a run waiting for a signal', async () => {
    const run = await fleet.client.submit('listener', { name: 'forever', count: 1 });
    await fleet.waitingOn(run.id, 'signal');
    await fleet.client.cancel(run.id);
    expect(await failureOf(run)).toMatchObject({ name: 'AbortError' });
    expect((await fleet.client.getRun(run.id))?.status).toBe('cancelled');
    await expect(fleet.client.signal(run.id, 'forever', { value: 1 })).rejects.toMatchObject({
      name: 'RunEndedError',
    });
    await expectRunKeysToExpire(redis.redis, redis.prefix, [run.id]);
  });

  it('fails a run whose deadline passes while it waits for approval', async () => {
    const run = await fleet.client.submit('mailer', { to: 'late' }, { timeoutMs: 1500 });
    await fleet.waitingOn(run.id, 'approval');
    expect(await failureOf(run)).toMatchObject({ name: 'RunTimeoutError' });
    expect((await fleet.client.getRun(run.id))?.status).toBe('failed');
    await expectRunKeysToExpire(redis.redis, redis.prefix, [run.id]);
  });
});
