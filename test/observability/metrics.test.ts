/**
 * Prometheus metrics scraped from a real worker process and a real scheduler process after a
 * known workload, parsed (names, types, labels, values), and the shipped Grafana dashboard
 * checked against them: every metric it queries is one the processes expose.
 */
import { readFileSync } from 'node:fs';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHAT_MODEL_USAGE } from '../apps/fixtures/app-agents.js';
import { call } from '../apps/support/http.js';
import { type SchedulerProcess, startSchedulerProcess } from '../apps/support/scheduler-process.js';
import { API_TOKEN } from '../apps/support/use-scheduler.js';
import { useWorkerProcess } from '../apps/support/use-worker-process.js';
import { type MetricFamily, parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);
const worker = useWorkerProcess(redis);
let scheduler: SchedulerProcess;
let client: FlotillaClient;

beforeAll(async () => {
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  scheduler = await startSchedulerProcess({
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    FLOTILLA_API_TOKEN: API_TOKEN,
    LOG_LEVEL: 'info',
  });
});
afterAll(async () => {
  await scheduler?.stop();
  await client.close();
});

async function scrape(url: string, token?: string): Promise<Map<string, MetricFamily>> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return parsePrometheusText(await response.text());
}
const workerMetrics = () => scrape(`http://127.0.0.1:${worker.process.healthPort}/metrics`);
const schedulerMetrics = () => scrape(`${scheduler.url}/metrics`, API_TOKEN);

describe('the worker process /metrics', () => {
  it('reports run counts and durations, model latency and tokens by agent, provider and model after two chat runs', async () => {
    const before = await workerMetrics();
    for (const message of ['one', 'two']) await (await client.submit('chat', { message })).result();
    const chat = { agent: 'chat', status: 'succeeded' };
    const model = { agent: 'chat', provider: 'mock', model: 'chat-model', outcome: 'ok' };
    const delta = (families: Map<string, MetricFamily>, name: string, labels: Record<string, string>) =>
      sampleValue(families, name, labels) - sampleValue(before, name, labels);
    // The worker counts a run in its onRunEnd hook, just after the client can see the record.
    const after = await vi.waitFor(
      async () => {
        const families = await workerMetrics();
        expect(delta(families, 'flotilla_run_duration_seconds_count', chat)).toBe(2);
        return families;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(after.get('flotilla_run_duration_seconds')?.type).toBe('histogram');
    expect(delta(after, 'flotilla_run_duration_seconds_bucket', { ...chat, le: '+Inf' })).toBe(2);
    expect(delta(after, 'flotilla_runs_completed_total', { agent: 'chat' })).toBe(2);
    expect(after.get('flotilla_runs_completed_total')?.type).toBe('counter');
    expect(after.get('flotilla_model_call_duration_seconds')?.type).toBe('histogram');
    expect(delta(after, 'flotilla_model_call_duration_seconds_count', model)).toBe(2);
    const input = { provider: 'mock', model: 'chat-model', kind: 'input' };
    expect(after.get('flotilla_model_tokens_total')?.type).toBe('counter');
    expect(delta(after, 'flotilla_model_tokens_total', input)).toBe(2 * CHAT_MODEL_USAGE.promptTokens);
    expect(delta(after, 'flotilla_model_tokens_total', { ...input, kind: 'output' })).toBe(
      2 * CHAT_MODEL_USAGE.completionTokens,
    );
  });

  it('reports the watched queue by state, suspended runs, memo reads, the worker gauges and process metrics', async () => {
    const families = await workerMetrics();
    expect(families.get('flotilla_queue_jobs')?.type).toBe('gauge');
    const states = families.get('flotilla_queue_jobs')?.samples.map((sample) => sample.labels);
    expect(states).toEqual(
      expect.arrayContaining(
        ['waiting', 'active', 'delayed', 'prioritized'].map((state) => ({
          queue: 'agents/chat',
          agent: 'chat',
          state,
        })),
      ),
    );
    // One queue per served agent (routing by agent), each labelled with its agent.
    expect(families.get('flotilla_runs_suspended')?.samples).toEqual(
      expect.arrayContaining([
        { name: 'flotilla_runs_suspended', labels: { queue: 'agents/chat', agent: 'chat' }, value: 0 },
      ]),
    );
    expect(sampleValue(families, 'flotilla_memo_reads_total', { outcome: 'hit' })).toBeGreaterThanOrEqual(0);
    expect(families.get('flotilla_memo_reads_total')?.type).toBe('counter');
    expect(sampleValue(families, 'flotilla_worker_up')).toBe(1);
    expect(sampleValue(families, 'flotilla_worker_concurrency')).toBe(4);
    expect(families.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('gauge');
    expect(families.get('process_cpu_seconds_total')?.type).toBe('counter');
  });

  it('counts every start of a parent run: its first start and its resume after its child run', async () => {
    const counted = (families: Map<string, MetricFamily>) =>
      sampleValue(families, 'flotilla_runs_started_total', { agent: 'gated-tree' });
    const before = counted(await workerMetrics());
    const gate = `${redis.prefix}:gate:metrics-tree`;
    const run = await client.submit('gated-tree', { gate });
    // Its child holds until the gate opens, so the parent suspends (a child that ended first
    // would be served in the same execution, with no resume to count).
    await vi.waitFor(async () => expect((await client.getRun(run.id))?.status).toBe('waiting'), {
      timeout: 30_000,
      interval: 50,
    });
    await redis.redis.set(gate, 'open');
    expect(await run.result()).toMatch(/^tree: /);
    expect(counted(await workerMetrics()) - before).toBe(2);
  });
});

describe('the scheduler process /metrics', () => {
  it('answers 401 without the API token', async () => {
    const response = await fetch(`${scheduler.url}/metrics`);
    expect(response.status).toBe(401);
  });

  it('counts requests by method, route pattern and status, and reports open SSE streams', async () => {
    const before = await schedulerMetrics();
    const submitted = await call<{ runId: string }>(scheduler.url, 'POST', '/runs', {
      body: { agentId: 'waiting', input: {} },
    });
    expect(submitted.status).toBe(202);
    const missing = await call(scheduler.url, 'GET', '/runs/no-such-run');
    expect(missing.status).toBe(404);
    const stream = await fetch(`${scheduler.url}/runs/${submitted.body.runId}/events`, {
      headers: { authorization: `Bearer ${API_TOKEN}`, accept: 'text/event-stream' },
    });
    const reader = stream.body?.getReader();
    await reader?.read();
    const open = await schedulerMetrics();
    expect(open.get('flotilla_sse_streams_open')?.type).toBe('gauge');
    expect(sampleValue(open, 'flotilla_sse_streams_open')).toBe(1);
    const counted = (families: Map<string, MetricFamily>, labels: Record<string, string>) =>
      sampleValue(families, 'flotilla_http_requests_total', labels) -
      sampleValue(before, 'flotilla_http_requests_total', labels);
    expect(open.get('flotilla_http_requests_total')?.type).toBe('counter');
    expect(counted(open, { method: 'POST', route: '/runs', status: '202' })).toBe(1);
    // The route pattern, never the id the client sent.
    expect(counted(open, { method: 'GET', route: '/runs/:id', status: '404' })).toBe(1);
    expect(JSON.stringify([...open.values()])).not.toContain('no-such-run');
    await client.cancel(submitted.body.runId);
    while (!(await reader?.read())?.done);
    const closed = await vi.waitFor(
      async () => {
        const families = await schedulerMetrics();
        expect(sampleValue(families, 'flotilla_sse_streams_open')).toBe(0);
        return families;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(counted(closed, { method: 'GET', route: '/runs/:id/events', status: '200' })).toBe(1);
    expect(closed.get('flotilla_http_request_duration_seconds')?.type).toBe('histogram');
    expect(closed.get('process_resident_memory_bytes')?.type).toBe('gauge');
  });
});

describe('the fleet-wide gauge of waiting runs, on the worker and the scheduler', () => {
  it('counts runs waiting for their conversation and for a worker by agent and kind, and drops them as they leave', async () => {
    const waiting = (families: Map<string, MetricFamily>, agent: string, kind: string) =>
      sampleValue(families, 'flotilla_runs_waiting', { agent, kind });
    const before = await schedulerMetrics();
    const conversationId = `metrics-${Date.now()}`;
    const holder = await client.submit('waiting', {}, { conversationId });
    await vi.waitFor(async () => expect((await client.getRun(holder.id))?.status).toBe('running'), {
      timeout: 30_000,
      interval: 50,
    });
    const queued = await client.submit('waiting', {}, { conversationId });
    // No live worker serves this id: it waits for one, and is not the fleet's agent (`unknown`).
    const unserved = await client.submit('nobody-serves-this', {});
    for (const scrapeOf of [workerMetrics, schedulerMetrics])
      await vi.waitFor(
        async () => {
          const families = await scrapeOf();
          expect(families.get('flotilla_runs_waiting')?.type).toBe('gauge');
          expect(waiting(families, 'waiting', 'conversation')).toBe(
            waiting(before, 'waiting', 'conversation') + 1,
          );
          expect(waiting(families, 'unknown', 'worker')).toBe(waiting(before, 'unknown', 'worker') + 1);
          // Labels only from the fleet's agent ids.
          expect(JSON.stringify([...families.values()])).not.toContain('nobody-serves-this');
        },
        { timeout: 30_000, interval: 100 },
      );
    // The queued run's record says the same as the gauge.
    expect((await client.getRun(queued.id))?.waitingFor?.kind).toBe('conversation');
    for (const run of [unserved, holder, queued]) await client.cancel(run.id);
    await vi.waitFor(
      async () => {
        const families = await schedulerMetrics();
        expect(waiting(families, 'waiting', 'conversation')).toBe(waiting(before, 'waiting', 'conversation'));
        expect(waiting(families, 'unknown', 'worker')).toBe(waiting(before, 'unknown', 'worker'));
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});

describe('the Grafana dashboard docs/grafana/flotilla.json', () => {
  it('queries only metrics the worker and scheduler processes expose', async () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../docs/grafana/flotilla.json', import.meta.url), 'utf8'),
    );
    const expressions: string[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (key === 'expr' && typeof value === 'string') expressions.push(value);
          else collect(value);
        }
    };
    collect(dashboard);
    expect(expressions.length).toBeGreaterThan(5);
    const exposed = new Set([...(await workerMetrics()).keys(), ...(await schedulerMetrics()).keys()]);
    const queried = new Set(
      expressions.flatMap((expr) => expr.match(/\b(?:flotilla|nodejs|process)_[a-z0-9_]+\b/g) ?? []),
    );
    const missing = [...queried].filter(
      (name) => !exposed.has(name) && !exposed.has(name.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(missing).toEqual([]);
  });
});
