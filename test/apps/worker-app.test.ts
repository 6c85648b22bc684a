/**
 * The worker app as a real process (the built `apps/worker/dist/main.js`): it serves the agents
 * of the modules named by FLOTILLA_AGENTS, reports health and run counters, finishes active runs
 * on SIGTERM, and refuses to start with a bad configuration, naming the variable.
 */
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { useWorkerProcess } from './support/use-worker-process.js';
import { APP_AGENT_MODULES, spawnWorker, startWorker } from './support/worker-process.js';

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

/** Reads /metrics until `ready(text)` holds (every 20 ms, at most 5 s), then returns the text. */
async function metricsWhen(ready: (text: string) => boolean): Promise<string> {
  let text = '';
  for (let attempt = 0; attempt < 250; attempt += 1) {
    const answer = await get('/metrics');
    expect(answer.status).toBe(200);
    text = answer.text;
    if (ready(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return text;
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

  it('counts completed and failed runs by agent on /metrics, in Prometheus text format', async () => {
    const before = (await get('/metrics')).text;
    await client.submit('research', { question: 'stalled jobs?' }).then((run) => run.result());
    const failing = await client.submit('no-such-agent', {});
    await expect(failing.result()).rejects.toMatchObject({ name: 'UnknownAgentError' });
    const completed = 'flotilla_runs_completed_total{agent="research"}';
    const failed = 'flotilla_runs_failed_total{agent="no-such-agent"}';
    // The worker counts a run in its onRunEnd hook, just after the client can see the record.
    const after = await metricsWhen(
      (text) =>
        sample(text, completed) > sample(before, completed) && sample(text, failed) > sample(before, failed),
    );
    expect(after).toContain('# TYPE flotilla_runs_completed_total counter');
    expect(sample(after, completed) - sample(before, completed)).toBe(1);
    expect(sample(after, failed) - sample(before, failed)).toBe(1);
    expect(sample(after, 'flotilla_worker_up')).toBe(1);
  });
});

describe('on SIGTERM', () => {
  it('finishes the active run, then exits 0', async () => {
    // A worker of its own, on its own queue, so the shared worker cannot take the run.
    const env = {
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_QUEUE: 'drain',
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
    };
    const draining = await startWorker(env);
    const drainClient = createClient({ connection: redis.url, prefix: redis.prefix, queueName: 'drain' });
    try {
      const run = await drainClient.submit('paced', {});
      for await (const event of run.events()) if (event.type === 'model-turn-start') break;
      const exit = await draining.stop();
      expect(exit.code).toBe(0);
      expect(exit.stdout).toContain('shutting down');
      await expect(run.result()).resolves.toBe('done at last');
      expect(await drainClient.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    } finally {
      await drainClient.close();
      await draining.stop();
    }
  });
});

describe('when the configuration is invalid', () => {
  it.each([
    ['FLOTILLA_WORKER_CONCURRENCY', 'zero'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['FLOTILLA_HEALTH_PORT', '99999'],
    ['FLOTILLA_AGENTS', ''],
  ])('exits non-zero with a message naming %s=%j', async (variable, value) => {
    const { exited } = spawnWorker({ FLOTILLA_AGENTS: APP_AGENT_MODULES, [variable]: value });
    const exit = await exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('InvalidConfigError');
    expect(exit.stderr).toContain(variable);
  });

  it('exits non-zero naming FLOTILLA_AGENTS and the module when a module exports no agents', async () => {
    const { exited } = spawnWorker({ FLOTILLA_AGENTS: './examples/dist/agents/research-notes.js' });
    const exit = await exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain(
      'AgentModuleError: FLOTILLA_AGENTS: agent module "./examples/dist/agents/research-notes.js"',
    );
    expect(exit.stderr).toContain('no `agents` array export');
  });
});
