/**
 * The worker app as a real process (the built `apps/worker/dist/main.js`): it serves the agents
 * of the modules named by FLOTILLA_AGENTS, reports health and run counters, finishes active runs
 * on SIGTERM, and refuses to start with a bad configuration, naming the variable (each rule is
 * tested in-process by apps/worker/src/worker-app-config.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { encodeRunJobData } from '@flotilla/runtime/internals';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { useWorkerProcess } from './support/use-worker-process.js';
import { APP_AGENT_MODULES, spawnWorker, startWorker, type WorkerProcess } from './support/worker-process.js';

const redis = useRedis(import.meta.filename);
const worker = useWorkerProcess(redis);
let client: FlotillaClient;

beforeAll(() => {
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});
afterAll(async () => {
  await client.close();
});

async function get(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${worker.process.healthPort}${path}`);
  return { status: response.status, text: await response.text() };
}

/** Reads /metrics (the worker counts a run just after the client sees its record) until `check` passes. */
async function metricsWhen(check: (text: string) => void): Promise<string> {
  return vi.waitFor(
    async () => {
      const answer = await get('/metrics');
      expect(answer.status).toBe(200);
      check(answer.text);
      return answer.text;
    },
    { timeout: 30_000, interval: 20 },
  );
}

/** The value of one sample line of the Prometheus text, 0 when absent. */
function sample(metrics: string, line: string): number {
  const found = metrics.split('\n').find((candidate) => candidate.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

describe('the worker app process', () => {
  it('runs the example research agent with the model its agent module exports', async () => {
    const run = await client.submit('research', { question: 'How do child agents work?' });
    await expect(run.result()).resolves.toMatchObject({
      sources: ['child-agents'],
      headline: expect.stringContaining('agent'),
    });
  });

  it('reports healthy on /healthz while it takes runs', async () => {
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({
      healthy: true,
      state: 'running',
      redis: 'ok',
      eventLoopDelayMs: expect.any(Number),
    });
  });

  it('counts started, completed, failed and cancelled runs by agent on /metrics, in Prometheus text format', async () => {
    const before = (await get('/metrics')).text;
    await client.submit('chat', { message: 'count me' }).then((run) => run.result());
    // A run of an agent no worker serves waits; only a raw job in a served agent's queue under
    // another agent's name reaches a worker that does not serve it.
    const failingId = `raw-${randomUUID()}`;
    const raw = new FleetQueues(redis.connect(), redis.prefix);
    await raw.queue('chat').add('no-such-agent', encodeRunJobData({}, {}), { jobId: failingId });
    await raw.close();
    const failed = await waitUntil(
      async () => {
        const record = await client.getRun(failingId);
        return record?.status === 'failed' ? record : undefined;
      },
      { what: 'the raw run of an unknown agent to fail' },
    );
    expect(failed.error).toMatchObject({ name: 'UnknownAgentError' });
    const waiting = await client.submit('waiting', {});
    for await (const event of waiting.events()) if (event.type === 'model-turn-start') break;
    await client.cancel(waiting.id);
    await expect(waiting.result()).rejects.toMatchObject({ name: 'AbortError' });

    const expected = {
      'flotilla_runs_started_total{agent="chat"}': 1,
      // Agent ids the worker does not serve share one series instead of one each.
      'flotilla_runs_started_total{agent="unknown"}': 1,
      'flotilla_runs_started_total{agent="waiting"}': 1,
      'flotilla_runs_completed_total{agent="chat"}': 1,
      'flotilla_runs_failed_total{agent="unknown"}': 1,
      'flotilla_runs_cancelled_total{agent="waiting"}': 1,
    };
    const delta = (text: string) =>
      Object.fromEntries(
        Object.keys(expected).map((line) => [line, sample(text, line) - sample(before, line)]),
      );
    // The worker counts a run in its onRunEnd hook, just after the client can see the record.
    const after = await metricsWhen((text) => expect(delta(text)).toEqual(expected));
    expect(after).toContain('# TYPE flotilla_runs_completed_total counter');
    expect(after).not.toContain('no-such-agent');
    expect(sample(after, 'flotilla_worker_up')).toBe(1);
  });
});

describe('on SIGTERM', () => {
  it('finishes the run still active when the signal came, then exits 0', async () => {
    // A worker of its own, on its own queue, so the shared worker cannot take the run.
    const env = {
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_QUEUE: 'drain',
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
    };
    const draining = await startWorker(env);
    const drainClient = createClient({ connection: redis.url, prefix: redis.prefix, queueName: 'drain' });
    const gate = `${redis.prefix}:drain-gate`;
    try {
      const run = await drainClient.submit('gated', { gate });
      for await (const event of run.events()) if (event.type === 'model-turn-start') break;
      // The model answers only once the gate is set, so the run is active when the signal comes.
      const shuttingDown = nextLog(draining, (line) => String(line.msg).startsWith('shutting down'));
      draining.child.kill('SIGTERM');
      await shuttingDown;
      expect(await drainClient.getRun(run.id)).toMatchObject({ status: 'running' });
      expect(draining.child.exitCode).toBeNull();

      await redis.redis.set(gate, 'open');
      const exit = await draining.exited; // stop() would send a second signal, which exits at once
      expect(exit.code).toBe(0);
      expect(exit.stdout).toContain('"msg":"shut down"');
      await expect(run.result()).resolves.toBe('done at last');
      // The same worker finished it: one attempt, no replay elsewhere.
      expect(await drainClient.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    } finally {
      await redis.redis.set(gate, 'open');
      await drainClient.close();
      await draining.stop();
    }
  });
});

/** Resolves with the first log line of `worker` that `matches` (listen before causing it). */
function nextLog(
  worker: WorkerProcess,
  matches: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onLog = (line: Record<string, unknown>) => {
      if (!matches(line)) return;
      worker.logs.off('log', onLog);
      resolve(line);
    };
    worker.logs.on('log', onLog);
  });
}

describe('with worker versioning', () => {
  it('passes FLOTILLA_VERSIONING and FLOTILLA_COMPATIBLE_WITH on to its worker, which announces them with its build', async () => {
    const pinned = await startWorker({
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
      FLOTILLA_BUILD_ID: 'app-v2',
      FLOTILLA_VERSIONING: 'pinned',
      FLOTILLA_COMPATIBLE_WITH: 'app-v1',
      LOG_LEVEL: 'info',
    });
    try {
      const announced = await waitUntil(
        async () => (await client.listWorkers()).find((listed) => listed.pid === pinned.child.pid),
        { what: 'the pinned worker app in the registry' },
      );
      expect(announced).toMatchObject({
        buildId: 'app-v2',
        versioning: 'pinned',
        compatibleWith: ['app-v1'],
      });
    } finally {
      await pinned.stop();
    }
  });

  it('refuses FLOTILLA_VERSIONING=pinned without FLOTILLA_BUILD_ID, naming it', async () => {
    const { exited } = spawnWorker({
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
      FLOTILLA_VERSIONING: 'pinned',
    });
    const exit = await exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('InvalidConfigError');
    expect(exit.stderr).toContain('FLOTILLA_BUILD_ID');
  });
});

describe('when the configuration is invalid', () => {
  // Each variable's rule is tested in-process in apps/worker/src/worker-app-config.test.ts;
  // this proves the process turns a refused configuration into exit 1 and a message.
  it('exits non-zero with a message naming the variable', async () => {
    const { exited } = spawnWorker({
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
      FLOTILLA_WORKER_CONCURRENCY: 'zero',
    });
    const exit = await exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('flotilla-worker could not start. InvalidConfigError');
    expect(exit.stderr).toContain('FLOTILLA_WORKER_CONCURRENCY');
  });
});
