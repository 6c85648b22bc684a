/**
 * Durable waits through the scheduler's HTTP API and the `flotilla` CLI, and the reliability
 * rules that apply to waiting runs: approve over HTTP, approve / reject / signal from the CLI,
 * cancel a waiting run, and a deadline that passes while a run waits.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient, type RunRecord } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../apps/support/http.js';
import { API_TOKEN, useScheduler } from '../apps/support/use-scheduler.js';
import { REPO_ROOT } from '../apps/support/worker-process.js';
import { failureOf } from '../support/failure-of.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';

const redis = useRedis(import.meta.filename);
const scheduler = useScheduler(redis);
const program = fileURLToPath(new URL('./fixtures/wait-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  await workers.start({ CONCURRENCY: '2' });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

function waitingOn(runId: string, kind: string): Promise<RunRecord> {
  return waitUntil(
    async () => {
      const record = await client.getRun(runId);
      return record?.status === 'waiting' && record.waitingFor?.kind === kind ? record : undefined;
    },
    { what: `run ${runId} waiting for ${kind}` },
  );
}

/** Runs `flotilla ...args` against the test scheduler; resolves with its exit code and output. */
function flotilla(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, FLOTILLA_API_URL: scheduler.url, FLOTILLA_API_TOKEN: API_TOKEN };
  const child = spawn(process.execPath, ['apps/scheduler/dist/cli/flotilla.js', ...args], {
    cwd: REPO_ROOT,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('approvals over HTTP', () => {
  it('POST /runs/:id/approvals/:callId approves, then refuses another answer and unknown calls', async () => {
    const run = await client.submit<string>('mailer', { to: 'http' });
    await waitingOn(run.id, 'approval');
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
    const approved = await client.submit<string>('mailer', { to: 'cli' });
    const rejected = await client.submit<string>('mailer', { to: 'nope' });
    const listener = await client.submit<unknown[]>('listener', { name: 'go', count: 1 });
    await Promise.all([
      waitingOn(approved.id, 'approval'),
      waitingOn(rejected.id, 'approval'),
      waitingOn(listener.id, 'signal'),
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
    const run = await client.submit('listener', { name: 'forever', count: 1 });
    await waitingOn(run.id, 'signal');
    await client.cancel(run.id);
    expect(await failureOf(run)).toMatchObject({ name: 'AbortError' });
    expect((await client.getRun(run.id))?.status).toBe('cancelled');
    await expect(client.signal(run.id, 'forever', { value: 1 })).rejects.toMatchObject({
      name: 'RunEndedError',
    });
  });

  it('fails a run whose deadline passes while it waits for approval', async () => {
    const run = await client.submit('mailer', { to: 'late' }, { timeoutMs: 1500 });
    await waitingOn(run.id, 'approval');
    expect(await failureOf(run)).toMatchObject({ name: 'RunTimeoutError' });
    expect((await client.getRun(run.id))?.status).toBe('failed');
  });
});
