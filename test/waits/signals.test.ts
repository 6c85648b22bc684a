/**
 * Signals with a real worker process and the scheduler's HTTP API: a signal sent before the
 * wait is kept, a repeated id is delivered once, a loop takes two signals of one name one each,
 * a wrong payload is a 400 with the schema's error while the run keeps waiting, an unknown run
 * is a 404; a wait inside a tool is refused and a wait past its timeout throws SignalTimeoutError.
 */
import type { RunRecord } from '@flotilla/runtime/client';
import { describe, expect, it } from 'vitest';
import { call } from '../apps/support/http.js';
import { useScheduler } from '../apps/support/use-scheduler.js';
import { failureOf } from '../support/failure-of.js';
import { useRedis } from '../support/redis.js';
import { useWaitFleet } from './fixtures/use-wait-fleet.js';

const redis = useRedis(import.meta.filename);
const scheduler = useScheduler(redis);
const fleet = useWaitFleet(redis);
const waitingForSignal = (runId: string, name: string) => fleet.waitingOn(runId, 'signal', name);

const signal = (runId: string, name: string, body: unknown) =>
  call(scheduler.url, 'POST', `/runs/${runId}/signals/${name}`, { body });

describe('signals', () => {
  it('keeps a signal sent before the wait, delivers a repeated id once, and feeds a loop one signal per wait', async () => {
    const run = await fleet.client.submit<unknown[]>(
      'listener',
      { name: 'step', count: 2 },
      { runId: 'listener-1' },
    );
    // Sent at once: the run may not even have started.
    const first = await signal(run.id, 'step', { payload: { value: 1 }, id: 'sig-1' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ signalId: 'sig-1', duplicate: false });
    const again = await signal(run.id, 'step', { payload: { value: 99 }, id: 'sig-1' });
    expect(again.body).toMatchObject({ duplicate: true });
    await waitingForSignal(run.id, 'step');
    await fleet.client.signal(run.id, 'step', { value: 2 }, { id: 'sig-2' });
    expect(await run.result()).toEqual([{ value: 1 }, { value: 2 }]);
    const received = [];
    for await (const event of fleet.client.run(run.id).events())
      if (event.type === 'signal-received') received.push(event.signalId);
    expect(received).toEqual(['sig-1', 'sig-2']);
  });

  it('answers a wrong payload with 400 and the schema error, and the run keeps waiting', async () => {
    const run = await fleet.client.submit<unknown[]>('listener', { name: 'amount', count: 1 });
    const waiting = await waitingForSignal(run.id, 'amount');
    expect(waiting.waits?.[0]?.info?.schema).toMatchObject({ type: 'object' });
    const wrong = await signal(run.id, 'amount', { payload: { value: 'ten' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: { name: 'InvalidSignalPayloadError' } });
    expect(JSON.stringify(wrong.body)).toContain('value');
    expect((await fleet.client.getRun(run.id))?.status).toBe('waiting');
    // The payload itself as the body (no envelope) works as well.
    expect((await signal(run.id, 'amount', { value: 10 })).status).toBe(202);
    expect(await run.result()).toEqual([{ value: 10 }]);
  });

  it('answers 404 for a signal to an unknown run', async () => {
    const answer = await signal('no-such-run', 'step', { payload: { value: 1 } });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { name: 'RunNotFoundError' } });
  });

  it('lists the runs awaiting a signal with GET /runs?status=waiting', async () => {
    const run = await fleet.client.submit('listener', { name: 'listed', count: 1 });
    await waitingForSignal(run.id, 'listed');
    const answer = await call<{ runs: RunRecord[] }>(scheduler.url, 'GET', '/runs?status=waiting');
    const listed = answer.body.runs.find((record) => record.runId === run.id);
    expect(listed?.waits?.[0]).toMatchObject({
      waitingFor: { kind: 'signal', detail: 'listed' },
      info: { name: 'listed' },
    });
    await fleet.client.signal(run.id, 'listed', { value: 3 });
    await run.result();
  });

  it('ends a wait past its timeout with SignalTimeoutError', async () => {
    const run = await fleet.client.submit('listener', { name: 'never', count: 1, timeoutMs: 500 });
    const error = await failureOf(run);
    expect(error).toMatchObject({ name: 'SignalTimeoutError' });
  });

  it('refuses a wait inside a tool with WaitInsideToolError (the model sees it)', async () => {
    const run = await fleet.client.submit<string>('tool-waiter', {});
    expect(await run.result()).toContain('WaitInsideToolError');
  });
});
