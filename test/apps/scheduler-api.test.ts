/**
 * The scheduler's HTTP API (in this process) in front of a real worker app process, on real
 * Redis: submit, live events over SSE, run records, cancel, conversations, and the errors a
 * client sees.
 */
import { randomUUID } from 'node:crypto';
import type { WorkerInfo } from '@flotilla/runtime/client';
import { COMPACTED_STREAM_GRACE_MS, eventsConnectionName, runKeys } from '@flotilla/runtime/internals';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { call, readEvents, waitForRun } from './support/http.js';
import { API_TOKEN, useScheduler } from './support/use-scheduler.js';
import { useWorkerProcess } from './support/use-worker-process.js';
import { APP_AGENT_MODULES, startWorker } from './support/worker-process.js';

const redis = useRedis(import.meta.filename);
const worker = useWorkerProcess(redis);
const scheduler = useScheduler(redis, { FLOTILLA_MAX_PAYLOAD_BYTES: '4096' });

/** The scheduler's open run-event readers, counted by client name in `CLIENT LIST`. */
async function openEventReaders(): Promise<number> {
  const list = (await redis.redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.includes(`name=${eventsConnectionName(redis.prefix)} `))
    .length;
}

async function submit(body: Record<string, unknown>): Promise<string> {
  const answer = await call<{ runId: string }>(scheduler.url, 'POST', '/runs', { body });
  expect(answer.status).toBe(202);
  return answer.body.runId;
}

describe('POST /runs', () => {
  it('queues a run and answers 202 with its id and location', async () => {
    const answer = await call<{ runId: string }>(scheduler.url, 'POST', '/runs', {
      body: { agentId: 'research', input: { question: 'What is the conversation store?' } },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get('location')).toBe(`/runs/${answer.body.runId}`);
    const record = await waitForRun(scheduler.url, answer.body.runId, (run) => run.status === 'succeeded');
    expect(record.output).toMatchObject({ sources: ['conversation-store'] });
  });

  it('makes one run when the same runId is submitted twice', async () => {
    const runId = `idempotent-${randomUUID()}`;
    const body = { agentId: 'research', input: { question: 'stalled jobs?' }, runId };
    expect(await submit(body)).toBe(runId);
    expect(await submit(body)).toBe(runId);
    const record = await waitForRun(scheduler.url, runId, (run) => run.status === 'succeeded');
    expect(record.attempts).toBe(1);
  });

  it('answers 400 InvalidJsonError for a body that is not JSON', async () => {
    const answer = await call(scheduler.url, 'POST', '/runs', { raw: '{"agentId": research' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { name: 'InvalidJsonError' } });
  });

  it('answers 400 InvalidRequestError naming the field when agentId is missing', async () => {
    const answer = await call<{ error: { name: string; message: string } }>(scheduler.url, 'POST', '/runs', {
      body: { input: {} },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.name).toBe('InvalidRequestError');
    expect(answer.body.error.message).toContain('agentId');
  });

  it('answers 400 naming onConflict when it is not one of the four strategies', async () => {
    const answer = await call<{ error: { name: string; message: string } }>(scheduler.url, 'POST', '/runs', {
      body: { agentId: 'chat', input: {}, conversationId: 'c', onConflict: 'overwrite' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('onConflict');
  });

  it('runs one writer per conversation: a reject fails ConversationBusyError, a waiting run shows waitingFor', async () => {
    const conversationId = `busy-${randomUUID()}`;
    const holder = await submit({ agentId: 'waiting', input: {}, conversationId });
    await waitForRun(scheduler.url, holder, (run) => run.status === 'running');
    const rejected = await submit({
      agentId: 'chat',
      input: { message: 'hi' },
      conversationId,
      onConflict: 'reject',
    });
    const failed = await waitForRun(scheduler.url, rejected, (run) => run.status === 'failed');
    expect(failed).toMatchObject({ modelCalls: 0, error: { name: 'ConversationBusyError' } });

    const queued = await submit({ agentId: 'chat', input: { message: 'after you' }, conversationId });
    const waiting = await waitForRun(scheduler.url, queued, (run) => run.waitingFor !== undefined);
    expect(waiting).toMatchObject({
      status: 'queued',
      waitingFor: { kind: 'conversation', detail: `${conversationId} (after run ${holder})` },
    });
    expect((await call(scheduler.url, 'POST', `/runs/${holder}/cancel`)).status).toBe(202);
    await waitForRun(scheduler.url, queued, (run) => run.status === 'succeeded');
  });

  it("answers 413 PayloadTooLargeError for an input over FLOTILLA_MAX_PAYLOAD_BYTES (the workers' limit)", async () => {
    const answer = await call(scheduler.url, 'POST', '/runs', {
      body: { agentId: 'research', input: { question: 'x'.repeat(5000) } },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: { name: 'PayloadTooLargeError' } });
  });

  it('queues a run of an agent no live worker serves: GET /runs/:id shows waitingFor worker', async () => {
    const runId = await submit({ agentId: 'no-such-agent', input: {} });
    const record = await call(scheduler.url, 'GET', `/runs/${runId}`);
    expect(record.body).toMatchObject({
      status: 'queued',
      waitingFor: { kind: 'worker', detail: 'no-such-agent' },
    });
    expect((await call(scheduler.url, 'POST', `/runs/${runId}/cancel`)).status).toBe(202);
  });
});

describe('GET /runs/:id/events', () => {
  it('streams the run as Server-Sent Events, live, and ends after run-end', async () => {
    const runId = await submit({
      agentId: 'research',
      input: { question: 'How does a run survive a crash?' },
    });
    const { contentType, events } = await readEvents(scheduler.url, runId);
    expect(contentType).toContain('text/event-stream');
    expect(events[0]?.event).toBe('run-start');
    expect(events.map((event) => event.event)).toEqual(
      expect.arrayContaining(['model-turn-end', 'tool-call', 'tool-result', 'child-start', 'child-end']),
    );
    expect(events.find((event) => event.event === 'tool-call')?.data).toMatchObject({ name: 'search_notes' });
    expect(events.at(-1)?.event).toBe('run-end');
    expect(events.at(-1)?.data).toMatchObject({ status: 'succeeded', modelCalls: 3 });
    const ids = events.map((event) => event.id ?? '');
    expect(ids.every((id) => /^\d+-\d+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(events.every((event) => !('eventId' in event.data))).toBe(true);
  });

  it('resumes after Last-Event-ID without sending the events up to it again', async () => {
    const runId = await submit({ agentId: 'research', input: { question: 'How is a stream resumed?' } });
    const { events } = await readEvents(scheduler.url, runId);
    const resumed = await readEvents(scheduler.url, runId, { lastEventId: events[2]?.id ?? '' });
    expect(resumed.events).toEqual(events.slice(3));
    expect(resumed.events.at(-1)?.event).toBe('run-end');
  });

  it('replays a finished run from its compacted timeline, and resumes after Last-Event-ID', async () => {
    const runId = await submit({ agentId: 'research', input: { question: 'What does a run keep?' } });
    await waitForRun(scheduler.url, runId, (run) => run.status === 'succeeded');
    // The stream was replaced by the timeline when the run ended (the stream itself only lingers
    // for the readers' grace).
    const keys = runKeys(redis.prefix, runId);
    await vi.waitFor(async () => expect(await redis.redis.exists(keys.timeline)).toBe(1), {
      timeout: 10_000,
    });
    const streamTtl = await redis.redis.pttl(keys.events); // -2: already gone
    expect(streamTtl === -2 || (streamTtl > 0 && streamTtl <= COMPACTED_STREAM_GRACE_MS)).toBe(true);
    const { events } = await readEvents(scheduler.url, runId);
    expect(events.filter((event) => event.event === 'run-end')).toHaveLength(1);
    expect(events.at(-1)?.data).toMatchObject({ status: 'succeeded', modelCalls: 3 });
    expect(events.map((event) => event.event)).toEqual(
      expect.arrayContaining(['model-turn-start', 'model-turn-end', 'tool-call', 'tool-result', 'child-end']),
    );
    const resumed = await readEvents(scheduler.url, runId, { lastEventId: events[4]?.id ?? '' });
    expect(resumed.events).toEqual(events.slice(5));
  });

  it('reads every open stream through one Redis connection, and frees a stream when its client disconnects', async () => {
    const runId = await submit({ agentId: 'waiting', input: {} });
    const disconnect = new AbortController();
    const readers = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await fetch(`${scheduler.url}/runs/${runId}/events`, {
          headers: { authorization: `Bearer ${API_TOKEN}` },
          signal: disconnect.signal,
        });
        const reader = response.body?.getReader();
        await reader?.read(); // the stream is open
        return reader;
      }),
    );
    await vi.waitFor(async () => expect(await openEventReaders()).toBe(1), { timeout: 5000 });
    const principal = { name: 'api-token' };
    expect(scheduler.app.streams.count(principal)).toBe(3);
    disconnect.abort();
    for (const reader of readers) await reader?.cancel().catch(() => undefined);
    await vi.waitFor(() => expect(scheduler.app.streams.count(principal)).toBe(0), { timeout: 5000 });
    expect(await openEventReaders()).toBeLessThanOrEqual(1);
    await call(scheduler.url, 'POST', `/runs/${runId}/cancel`);
  });

  it('answers 404 RunNotFoundError as JSON for an unknown run', async () => {
    const answer = await call(scheduler.url, 'GET', '/runs/never-submitted/events');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { name: 'RunNotFoundError' } });
  });
});

describe('GET /runs/:id', () => {
  it('returns the run record with the structured result and usage', async () => {
    const runId = await submit({ agentId: 'research', input: { question: 'child agents?' } });
    await readEvents(scheduler.url, runId);
    const answer = await call(scheduler.url, 'GET', `/runs/${runId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      runId,
      agentId: 'research',
      status: 'succeeded',
      modelCalls: 3,
      output: { sources: ['child-agents'], headline: expect.any(String) },
    });
    expect((answer.body.usage as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
  });

  it('answers 404 RunNotFoundError for an unknown run', async () => {
    const answer = await call(scheduler.url, 'GET', '/runs/never-submitted');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { name: 'RunNotFoundError' } });
  });
});

describe('POST /runs/:id/cancel', () => {
  it('cancels a running run: it ends cancelled', async () => {
    const runId = await submit({ agentId: 'waiting', input: {} });
    await waitForRun(scheduler.url, runId, (run) => run.status === 'running');
    const answer = await call(scheduler.url, 'POST', `/runs/${runId}/cancel`);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ runId });
    const { events } = await readEvents(scheduler.url, runId);
    expect(events.at(-1)?.data).toMatchObject({ type: 'run-end', status: 'cancelled' });
    const record = await call(scheduler.url, 'GET', `/runs/${runId}`);
    expect(record.body.status).toBe('cancelled');
  });

  it('answers 409 RunAlreadyEndedError for a run that already ended, and leaves it as it was', async () => {
    const runId = await submit({ agentId: 'research', input: { question: 'done?' } });
    await waitForRun(scheduler.url, runId, (run) => run.status === 'succeeded');
    const answer = await call(scheduler.url, 'POST', `/runs/${runId}/cancel`);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      error: { name: 'RunAlreadyEndedError', data: { status: 'succeeded' } },
    });
    expect((await call(scheduler.url, 'GET', `/runs/${runId}`)).body.status).toBe('succeeded');
  });

  it('answers 404 RunNotFoundError for an unknown run', async () => {
    const answer = await call(scheduler.url, 'POST', '/runs/never-submitted/cancel');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { name: 'RunNotFoundError' } });
  });
});

describe('GET /conversations/:id', () => {
  it('returns the stored conversation, an earlier snapshot with ?version=N, and 404 past the latest', async () => {
    const conversationId = `conversation-${randomUUID()}`;
    for (const message of ['hello', 'again']) {
      const runId = await submit({ agentId: 'chat', input: { message }, conversationId });
      await waitForRun(scheduler.url, runId, (run) => run.status === 'succeeded');
    }
    const latest = await call<{ header: { version: number }; messages: { role: string; content: string }[] }>(
      scheduler.url,
      'GET',
      `/conversations/${conversationId}`,
    );
    expect(latest.status).toBe(200);
    expect(latest.body.messages.at(-1)?.content).toBe('you said "again" (user messages so far: 2)');
    const first = await call<{ messages: { content: string }[] }>(
      scheduler.url,
      'GET',
      `/conversations/${conversationId}?version=${latest.body.header.version / 2}`,
    );
    expect(first.status).toBe(200);
    expect(first.body.messages.map((message) => message.content)).toEqual([
      'hello',
      'you said "hello" (user messages so far: 1)',
    ]);
    const beyond = await call(
      scheduler.url,
      'GET',
      `/conversations/${conversationId}?version=${latest.body.header.version + 1}`,
    );
    expect(beyond.status).toBe(404);
    expect(beyond.body).toMatchObject({ error: { name: 'ConversationVersionNotFoundError' } });
  });

  it('answers 404 ConversationNotFoundError for an unknown conversation', async () => {
    const answer = await call(scheduler.url, 'GET', '/conversations/never-started');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { name: 'ConversationNotFoundError' } });
  });

  it('answers 400 InvalidRequestError for a version that is not a whole number', async () => {
    const answer = await call(scheduler.url, 'GET', '/conversations/any?version=latest');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { name: 'InvalidRequestError' } });
  });
});

describe('authorization and routing', () => {
  it('answers 401 UnauthorizedError without the bearer token', async () => {
    const answer = await call(scheduler.url, 'POST', '/runs', { body: { agentId: 'research' }, token: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { name: 'UnauthorizedError' } });
  });

  it('answers 401 UnauthorizedError with a wrong token', async () => {
    const answer = await call(scheduler.url, 'GET', '/runs/any', { token: 'not-the-token-at-all' });
    expect(answer.status).toBe(401);
  });

  it('answers /healthz without a token, with Redis reachability', async () => {
    const answer = await call(scheduler.url, 'GET', '/healthz', { token: null });
    expect(answer).toMatchObject({ status: 200, body: { healthy: true, redis: 'ok' } });
  });

  it('answers 404 RouteNotFoundError for an unknown path and 405 for a wrong method', async () => {
    expect((await call(scheduler.url, 'GET', '/jobs')).body).toMatchObject({
      error: { name: 'RouteNotFoundError' },
    });
    const wrongMethod = await call(scheduler.url, 'DELETE', '/runs/any');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(wrongMethod.body).toMatchObject({ error: { name: 'MethodNotAllowedError' } });
  });
});

describe('GET /workers', () => {
  it('lists the live workers from the registry and drops a killed one', async () => {
    const extra = await startWorker({
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
      FLOTILLA_BUILD_ID: 'extra-1',
    });
    try {
      const answer = await call<{ workers: WorkerInfo[] }>(scheduler.url, 'GET', '/workers');
      expect(answer.status).toBe(200);
      const pids = answer.body.workers.map((worker) => worker.pid);
      expect(pids).toEqual(expect.arrayContaining([worker.process.child.pid, extra.child.pid]));
      expect(answer.body.workers.find((listed) => listed.pid === extra.child.pid)).toMatchObject({
        buildId: 'extra-1',
        concurrency: expect.any(Number),
        activeRuns: 0,
        agents: expect.arrayContaining(['research']),
      });
      extra.child.kill('SIGKILL');
      await extra.exited;
      const after = await waitUntil(
        async () => {
          const listed = await call<{ workers: WorkerInfo[] }>(scheduler.url, 'GET', '/workers');
          const left = listed.body.workers.map((listedWorker) => listedWorker.pid);
          return left.includes(extra.child.pid ?? -1) ? undefined : left;
        },
        { what: 'the killed worker to drop out of GET /workers' },
      );
      expect(after).toEqual([worker.process.child.pid]);
    } finally {
      await extra.stop();
    }
  });
});
