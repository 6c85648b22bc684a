/**
 * The scheduler's HTTP API from outside, as an attacker or a broken client would call it: the
 * real scheduler process (`apps/scheduler/dist/main.js`, once with a token and once in the
 * tokenless loopback mode) in front of a real worker process, on a private `redis-server`
 * that is stopped and started again under them. Every case checks its status code, the error
 * name, and that a refused request left nothing in Redis.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@flotilla/runtime/client';
import { bullmqPrefix, eventsConnectionName, runKeys } from '@flotilla/runtime/internals';
import { createSchedulerApp, OPENAPI_PATH, parseSse } from '@flotilla/scheduler';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAKED_KEY } from '../apps/fixtures/app-agents.js';
import { type SchedulerProcess, startSchedulerProcess } from '../apps/support/scheduler-process.js';
import { APP_AGENT_MODULES, startWorker, type WorkerProcess } from '../apps/support/worker-process.js';
import { type RedisServerProcess, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { openStream, type RawAnswer, rawRequest } from './support/raw-http.js';

const TOKEN = 'security-tests-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const PREFIX = 'security';
/** The payload limit of the scheduler and the worker here: one limit for both. */
const MAX_PAYLOAD_BYTES = 65_536;
const STREAM_CAP = 300;

let server: RedisServerProcess;
let redis: Redis;
let worker: WorkerProcess;
/** With FLOTILLA_API_TOKEN. */
let api: SchedulerProcess;
/** Without a token: loopback only. */
let open: SchedulerProcess;

beforeAll(async () => {
  server = await startRedisServer();
  redis = assertionConnection(server.url);
  const env = {
    REDIS_URL: server.url,
    FLOTILLA_PREFIX: PREFIX,
    FLOTILLA_MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD_BYTES),
    LOG_LEVEL: 'info',
  };
  worker = await startWorker({
    ...env,
    FLOTILLA_AGENTS: APP_AGENT_MODULES,
    FLOTILLA_WORKER_CONCURRENCY: '4',
  });
  [api, open] = await Promise.all([
    startSchedulerProcess({
      ...env,
      FLOTILLA_API_TOKEN: TOKEN,
      FLOTILLA_API_BODY_TIMEOUT_MS: '1000',
      FLOTILLA_API_MAX_STREAMS: String(STREAM_CAP),
      FLOTILLA_REQUEST_TIMEOUT_MS: '1000',
    }),
    startSchedulerProcess(env),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.stop(), open?.stop(), worker?.stop()]);
  redis?.disconnect();
  await server?.stop();
}, 60_000);

/** This file's own connection; its outage errors are expected here, not printed. */
function assertionConnection(url: string): Redis {
  const connection = new Redis(url, { maxRetriesPerRequest: 1 });
  connection.on('error', () => undefined);
  return connection;
}

/** Every key in Redis that is not BullMQ's periodic bookkeeping. */
async function storedKeys(): Promise<string[]> {
  const keys = await redis.keys('*');
  // BullMQ's own periodic bookkeeping (its stalled-job check marks active jobs in `:stalled`
  // whenever it runs) is not something a refused request wrote.
  const periodic = [':stalled-check', ':stalled', ':meta'];
  return keys.filter((key) => !periodic.some((suffix) => key.endsWith(suffix))).sort();
}

/**
 * Runs `refused` and checks it answered `status` with the error `name`, and that Redis holds
 * exactly the keys it held before.
 */
async function expectRefused(
  refused: () => Promise<RawAnswer>,
  status: number,
  name: string,
): Promise<RawAnswer> {
  const before = await storedKeys();
  const answer = await refused();
  expect({ status: answer.status, body: answer.text }).toMatchObject({ status });
  expect(answer.json().error.name).toBe(name);
  expect(answer.text).not.toMatch(/\bat .+\.[jt]s:\d+/); // no stack frames
  expect(await storedKeys()).toEqual(before);
  return answer;
}

function submitBody(input: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ agentId: 'chat', input, ...extra });
}

async function submit(agentId: string, input: unknown): Promise<string> {
  const answer = await rawRequest(api.url, '/runs', {
    method: 'POST',
    headers: JSON_AUTH,
    body: JSON.stringify({ agentId, input }),
  });
  expect(answer.status, answer.text).toBe(202);
  return answer.json<{ runId: string }>().runId;
}

interface Event {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

/** Reads `/runs/:id/events` (optionally resuming); stops after `stopAfter` events when given. */
async function readEvents(
  runId: string,
  options: { lastEventId?: string; stopWhen?: (event: Event) => boolean } = {},
) {
  const headers: Record<string, string> = { ...AUTH };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const disconnect = new AbortController();
  const response = await fetch(`${api.url}/runs/${runId}/events`, { headers, signal: disconnect.signal });
  expect(response.status).toBe(200);
  const events: Event[] = [];
  try {
    for await (const message of parseSse(response.body as ReadableStream<Uint8Array>)) {
      events.push({ event: message.event, id: message.id, data: JSON.parse(message.data) });
      if (options.stopWhen?.(events.at(-1) as Event)) break;
    }
  } finally {
    disconnect.abort();
  }
  return events;
}

async function runRecord(runId: string): Promise<Record<string, unknown>> {
  return (await rawRequest(api.url, `/runs/${runId}`, { headers: AUTH })).json();
}

async function waitForStatus(runId: string, statuses: string[]): Promise<Record<string, unknown>> {
  return waitUntil(
    async () => {
      const record = await runRecord(runId);
      return statuses.includes(record.status as string) ? record : undefined;
    },
    { what: `run ${runId} to reach ${statuses.join('/')}` },
  );
}

/** Waits until the run ended and its BullMQ job is gone, so Redis holds only what stays. */
async function waitForEnded(runId: string): Promise<void> {
  await waitForStatus(runId, ['succeeded', 'failed', 'cancelled']);
  await waitUntil(
    async () =>
      (await redis.keys(`${bullmqPrefix(PREFIX)}:agents/*:${runId}*`)).length === 0 ? true : undefined,
    { what: `the job of run ${runId} to be removed` },
  );
}

describe('authentication', () => {
  it('401 UnauthorizedError with WWW-Authenticate for no token and a wrong token', async () => {
    const wrongToken: Record<string, string> = { authorization: 'Bearer not-the-token-at-all-0000' };
    for (const headers of [{}, wrongToken]) {
      const answer = await expectRefused(
        () =>
          rawRequest(api.url, '/runs', {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: submitBody({}),
          }),
        401,
        'UnauthorizedError',
      );
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="flotilla"');
    }
  });

  it('400 TokenInQueryError for a token in the query string, even with the right header', async () => {
    for (const query of [`?access_token=${TOKEN}`, `?api_key=${TOKEN}`, `?q=${TOKEN}`]) {
      const answer = await expectRefused(
        () => rawRequest(api.url, `/runs/any${query}`, { headers: AUTH }),
        400,
        'TokenInQueryError',
      );
      expect(answer.text).not.toContain(TOKEN);
    }
    expect(api.stdout.join('\n')).not.toContain(TOKEN);
  });
});

describe('tokenless loopback mode', () => {
  it('200 for a loopback Host, 403 ForeignOriginError for a foreign Host (DNS rebinding)', async () => {
    const health = await rawRequest(open.url, '/runs/never-submitted', {
      headers: { host: `localhost:${open.port}` },
    });
    expect(health.status).toBe(404);
    await expectRefused(
      () =>
        rawRequest(open.url, '/conversations/any', { headers: { host: `attacker.example:${open.port}` } }),
      403,
      'ForeignOriginError',
    );
  });

  it('403 ForeignOriginError for a cross-site POST (foreign Origin, text/plain), and 415 for text/plain from loopback', async () => {
    await expectRefused(
      () =>
        rawRequest(open.url, '/runs', {
          method: 'POST',
          headers: { origin: 'https://attacker.example', 'content-type': 'text/plain' },
          body: submitBody({}),
        }),
      403,
      'ForeignOriginError',
    );
    await expectRefused(
      () =>
        rawRequest(open.url, '/runs', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: submitBody({}),
        }),
      415,
      'UnsupportedMediaTypeError',
    );
  });
});

describe('request bodies', () => {
  it('415 UnsupportedMediaTypeError for text/plain, form and missing content types', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const headers: Record<string, string> = { ...AUTH };
      if (contentType) headers['content-type'] = contentType;
      await expectRefused(
        () => rawRequest(api.url, '/runs', { method: 'POST', headers, body: submitBody({}) }),
        415,
        'UnsupportedMediaTypeError',
      );
    }
  });

  it('400 InvalidJsonError for a body that is not JSON, 400 InvalidRequestError for an empty or non-object one', async () => {
    await expectRefused(
      () => rawRequest(api.url, '/runs', { method: 'POST', headers: JSON_AUTH, body: '{"agentId": chat' }),
      400,
      'InvalidJsonError',
    );
    for (const body of [undefined, '[]', '"text"'])
      await expectRefused(
        () =>
          rawRequest(api.url, '/runs', {
            method: 'POST',
            headers: JSON_AUTH,
            ...(body === undefined ? {} : { body }),
          }),
        400,
        'InvalidRequestError',
      );
  });

  it('413 for a body over the limit, declared or chunked, and for an input over FLOTILLA_MAX_PAYLOAD_BYTES', async () => {
    // Declared: refused from its Content-Length, before the body is read.
    await expectRefused(
      () =>
        rawRequest(api.url, '/runs', {
          method: 'POST',
          headers: { ...JSON_AUTH, 'content-length': String(MAX_PAYLOAD_BYTES + 70_000) },
          body: '{"agentId":"chat","input":"',
          stall: true,
        }),
      413,
      'RequestBodyTooLargeError',
    );
    // Chunked: no Content-Length, 16 KiB chunks without end.
    function* endless() {
      yield '{"agentId":"chat","input":"';
      for (;;) yield 'y'.repeat(16_384);
    }
    await expectRefused(
      () => rawRequest(api.url, '/runs', { method: 'POST', headers: JSON_AUTH, chunks: endless() }),
      413,
      'RequestBodyTooLargeError',
    );
    // Within the body bound, but more than a worker accepts: refused at submit, not failed later.
    const answer = await expectRefused(
      () =>
        rawRequest(api.url, '/runs', {
          method: 'POST',
          headers: JSON_AUTH,
          body: submitBody('z'.repeat(MAX_PAYLOAD_BYTES + 10)),
        }),
      413,
      'PayloadTooLargeError',
    );
    expect(answer.json().error.message).toContain(String(MAX_PAYLOAD_BYTES));
  });

  it('400 ValueTooDeepError naming the depth limit for 6,000 levels of nesting (12 KB)', async () => {
    const deep = `{"agentId":"chat","input":${'['.repeat(6000)}${']'.repeat(6000)}}`;
    const answer = await expectRefused(
      () => rawRequest(api.url, '/runs', { method: 'POST', headers: JSON_AUTH, body: deep }),
      400,
      'ValueTooDeepError',
    );
    expect(answer.json().error.message).toContain('FLOTILLA_MAX_JSON_DEPTH');
    // The scheduler is still serving.
    expect((await rawRequest(api.url, '/healthz')).status).toBe(200);
  });

  it('408 RequestTimeoutError for a body that stalls (FLOTILLA_API_BODY_TIMEOUT_MS)', async () => {
    const answer = await expectRefused(
      () =>
        rawRequest(api.url, '/runs', {
          method: 'POST',
          headers: { ...JSON_AUTH, 'content-length': '500' },
          body: '{"agentId":"chat",',
          stall: true,
        }),
      408,
      'RequestTimeoutError',
    );
    expect(answer.headers.connection).toBe('close');
  });
});

describe('ids, methods and routes', () => {
  it('400 InvalidRequestError for odd ids in paths and bodies, 404 for unknown well-formed ones', async () => {
    for (const path of [
      '/runs/..%2F..%2Fetc',
      `/runs/${'a'.repeat(300)}`,
      '/runs/a%00b',
      '/runs/%E2%80%AE/events',
      '/conversations/a%20b',
    ])
      await expectRefused(() => rawRequest(api.url, path, { headers: AUTH }), 400, 'InvalidRequestError');
    for (const extra of [{ runId: '12345' }, { runId: 'a b' }, { conversationId: 'x'.repeat(201) }])
      await expectRefused(
        () =>
          rawRequest(api.url, '/runs', { method: 'POST', headers: JSON_AUTH, body: submitBody({}, extra) }),
        400,
        'InvalidRequestError',
      );
    await expectRefused(
      () => rawRequest(api.url, '/runs/never-submitted', { headers: AUTH }),
      404,
      'RunNotFoundError',
    );
  });

  it('405 with Allow for a wrong method, 404 for an unknown path, HEAD /healthz answered', async () => {
    const wrong = await expectRefused(
      () => rawRequest(api.url, '/runs', { method: 'DELETE', headers: AUTH }),
      405,
      'MethodNotAllowedError',
    );
    expect(wrong.headers.allow).toBe('POST, GET, HEAD');
    await expectRefused(() => rawRequest(api.url, '/jobs', { headers: AUTH }), 404, 'RouteNotFoundError');
    const head = await rawRequest(api.url, '/healthz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});

describe('errors clients see', () => {
  it('has no stack, and a credential a provider echoed is redacted in the record, the events and Redis', async () => {
    const runId = await submit('leaky', {});
    const record = await waitForStatus(runId, ['failed']);
    const stored = await redis.hgetall(runKeys(PREFIX, runId).record);
    const events = await readEvents(runId);
    for (const text of [JSON.stringify(record), JSON.stringify(stored), JSON.stringify(events)]) {
      expect(text).not.toContain(LEAKED_KEY);
      expect(text).toContain('[redacted]');
    }
    expect(JSON.stringify(record)).not.toContain('"stack"');
    expect(JSON.stringify(events)).not.toContain('"stack"');
  });
});

describe('cancel', () => {
  it('409 RunAlreadyEndedError for a run that already ended', async () => {
    const runId = await submit('chat', { message: 'hi' });
    await waitForEnded(runId);
    await expectRefused(
      () => rawRequest(api.url, `/runs/${runId}/cancel`, { method: 'POST', headers: AUTH }),
      409,
      'RunAlreadyEndedError',
    );
  });
});

describe('event streams', () => {
  it('400 InvalidLastEventIdError for an absurd Last-Event-ID, which is never logged', async () => {
    const runId = await submit('chat', { message: 'hi' });
    await waitForEnded(runId);
    const absurd = `${'9'.repeat(50)}-${'z'.repeat(8000)}`;
    await expectRefused(
      () => rawRequest(api.url, `/runs/${runId}/events`, { headers: { ...AUTH, 'last-event-id': absurd } }),
      400,
      'InvalidLastEventIdError',
    );
    expect(api.stdout.join('\n')).not.toContain('zzzzzzzz');
  });

  it('ends with the final run-end when Last-Event-ID is at or past the end of the run', async () => {
    const runId = await submit('chat', { message: 'hi' });
    await waitForStatus(runId, ['succeeded']);
    const all = await readEvents(runId);
    const end = all.at(-1);
    expect(end?.event).toBe('run-end');
    for (const lastEventId of [end?.id as string, '99999999999999-0']) {
      const resumed = await readEvents(runId, { lastEventId });
      expect(resumed).toEqual([end]);
    }
  });

  it('resumes live after a disconnect mid-run: no event twice, exactly one run-end', async () => {
    const gate = `${PREFIX}:gate:${randomUUID()}`;
    const runId = await submit('gated', { gate });
    // Up to the model turn, where the run waits for the gate.
    const first = await readEvents(runId, { stopWhen: (event) => event.event === 'model-turn-start' });
    expect(first[0]?.event).toBe('run-start');
    expect(first.some((event) => event.event === 'run-end')).toBe(false);
    const resuming = readEvents(runId, { lastEventId: first.at(-1)?.id as string });
    await redis.set(gate, 'open', 'EX', 60);
    const rest = await resuming;
    const seen = [...first, ...rest];
    expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length);
    expect(seen.filter((event) => event.event === 'run-end')).toHaveLength(1);
    expect(seen.at(-1)?.data).toMatchObject({ type: 'run-end', status: 'succeeded' });
    expect(seen).toEqual(await readEvents(runId));
  });

  it(`holds ${STREAM_CAP} concurrent streams on one Redis connection, and answers 429 TooManyStreamsError past the cap`, async () => {
    const runId = await submit('waiting', {});
    const clientsBefore = await schedulerClients();
    const streams = await Promise.all(
      Array.from({ length: STREAM_CAP }, () => openStream(api.url, `/runs/${runId}/events`, AUTH)),
    );
    try {
      expect(streams.every((stream) => stream.status === 200)).toBe(true);
      const readers = await waitUntil(
        async () => {
          const count = await eventReaders();
          return count > 0 ? count : undefined;
        },
        { what: 'the shared event reader connection' },
      );
      const clientsDuring = await schedulerClients();
      console.log(
        `${STREAM_CAP} open SSE streams: event-reading Redis clients ${readers}; Redis clients ${clientsBefore} before, ${clientsDuring} during`,
      );
      expect(readers).toBe(1);
      expect(clientsDuring - clientsBefore).toBeLessThanOrEqual(2);
      await expectRefused(
        () => rawRequest(api.url, `/runs/${runId}/events`, { headers: AUTH }),
        429,
        'TooManyStreamsError',
      );
      // Every stream sees the end of the run (one XREAD fanned out to all of them).
      const cancelled = Date.now();
      await rawRequest(api.url, `/runs/${runId}/cancel`, { method: 'POST', headers: AUTH });
      await waitUntil(
        async () =>
          streams.every((stream) => stream.received().includes('event: run-end')) ? true : undefined,
        { what: `run-end on all ${STREAM_CAP} streams` },
      );
      console.log(
        `run-end reached all ${STREAM_CAP} streams ${Date.now() - cancelled} ms after the cancel request`,
      );
    } finally {
      for (const stream of streams) stream.close();
    }
    // Closed streams give their slots back.
    const again = await waitUntil(
      async () => {
        const stream = await openStream(api.url, `/runs/${runId}/events`, AUTH);
        if (stream.status === 200) return stream;
        stream.close();
        return undefined;
      },
      { what: 'a stream slot after the others closed' },
    );
    again.close();
  });
});

describe('OpenAPI', () => {
  it('GET /openapi.json is a valid OpenAPI 3.1 document with every route the app answers and its errors', async () => {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    const answer = await rawRequest(api.url, '/openapi.json', { headers: AUTH });
    expect(answer.status).toBe(200);
    const document = answer.json<{
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    expect(document.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(document) as never);
    // The routes the app really has (Hono's table), not a list kept by hand.
    const client = createClient({ connection: server.url, prefix: PREFIX });
    try {
      const app = createSchedulerApp({
        client,
        apiTokens: [],
        maxPayloadBytes: MAX_PAYLOAD_BYTES,
        maxJsonDepth: 128,
        bodyTimeoutMs: 1000,
        maxStreamsPerPrincipal: 1,
        logger: pino({ level: 'silent' }),
      });
      const answered = app.routes
        .filter((route) => route.method !== 'ALL' && route.path !== OPENAPI_PATH)
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(answered.length).toBeGreaterThanOrEqual(6);
      expect(documented.sort()).toEqual([...new Set(answered)].sort());
    } finally {
      await client.close();
    }
    for (const [path, operations] of Object.entries(document.paths))
      for (const operation of Object.values(operations)) {
        const statuses = Object.keys(operation.responses);
        if (path !== '/healthz')
          expect(statuses).toEqual(expect.arrayContaining(['400', '401', '403', '500', '503']));
      }
    expect(Object.keys(document.paths['/runs']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['202', '408', '409', '413', '415']),
    );
  });
});

/** Connections named as the scheduler's event readers, from `CLIENT LIST`. */
async function eventReaders(): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.includes(`name=${eventsConnectionName(PREFIX)} `)).length;
}

/** All Redis clients (the scheduler's, the worker's, this file's). */
async function schedulerClients(): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.trim() !== '').length;
}

// Last: stops Redis under the running processes.
describe('Redis stopped and restarted under the scheduler', () => {
  it('503 with the reason on /healthz, fast 503 RedisUnavailableError on requests, JSON logs only; back after', async () => {
    const before = { stdout: api.stdout.length, stderr: api.stderr.length };
    const { port } = server;
    await server.stop();
    const health = await rawRequest(api.url, '/healthz');
    expect(health.status).toBe(503);
    expect(health.json<{ healthy: boolean; redis: string }>()).toMatchObject({
      healthy: false,
      redis: expect.stringContaining(`127.0.0.1:${port}`),
    });
    const started = Date.now();
    const refused = await Promise.all([
      rawRequest(api.url, '/runs', {
        method: 'POST',
        headers: JSON_AUTH,
        body: submitBody({ message: 'hi' }),
      }),
      rawRequest(api.url, '/runs/any-run', { headers: AUTH }),
      ...Array.from({ length: 20 }, () => rawRequest(api.url, '/runs/another-run', { headers: AUTH })),
    ]);
    console.log(`22 requests during the outage answered in ${Date.now() - started} ms`);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.json().error.name).toBe('RedisUnavailableError');
    }
    server = await startRedisServer({ port });
    redis.disconnect();
    redis = assertionConnection(server.url);
    await waitUntil(async () => ((await rawRequest(api.url, '/healthz')).status === 200 ? true : undefined), {
      what: 'the scheduler to see Redis again',
    });
    const runId = await submit('chat', { message: 'back?' });
    await waitForStatus(runId, ['succeeded']);
    const printed = api.stdout.slice(before.stdout);
    for (const line of printed) expect(() => JSON.parse(line), line).not.toThrow();
    expect(api.stderr.slice(before.stderr).join('\n')).toBe('');
    const accessLines = printed.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    expect(accessLines.at(-1)).toMatchObject({
      method: expect.any(String),
      status: expect.any(Number),
      principal: 'api-token',
    });
    console.log(
      `the scheduler printed ${printed.length} lines (${accessLines.length} access log lines) over the outage`,
    );
  });

  it('exits promptly on SIGTERM while Redis is down', async () => {
    const { port } = server;
    await server.stop();
    try {
      const started = Date.now();
      expect(await open.stop()).toBe(0);
      console.log(`scheduler exited ${Date.now() - started} ms after SIGTERM with Redis down`);
    } finally {
      server = await startRedisServer({ port });
    }
  });
});
