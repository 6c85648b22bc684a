/**
 * A 3 s Redis outage under real processes: the worker app, the scheduler app and a client
 * process run on a private `redis-server`, which is stopped and started again. While it is
 * down, client calls fail with `RedisUnavailableError` instead of blocking (a `result()` with
 * a patient request timeout keeps waiting); every process prints only a handful of pino JSON
 * lines; after it is back, the waits end and a new run completes. A paused server (SIGSTOP: the
 * sockets stay open, nothing answers) bounds client calls the same way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACED_MODEL_DELAY_MS } from '../apps/fixtures/app-agents.js';
import { REPO_ROOT, startWorker, type WorkerProcess } from '../apps/support/worker-process.js';
import { type RedisServerProcess, startRedisServer } from '../support/redis-server.js';

const CLIENT_PROGRAM = fileURLToPath(new URL('./fixtures/outage-client.ts', import.meta.url));
const PREFIX = 'outage';
/** The request timeout of the `short` client and the scheduler: shorter than the outage. */
const SHORT_TIMEOUT_MS = 1000;
/** Lines one process may print from the moment Redis stops until a run after it completed. */
const MAX_LINES_PER_PROCESS = 12;

/** Every line a process prints on stdout and stderr, in order. */
class Lines {
  readonly all: string[] = [];
  constructor(...streams: (Readable | null | undefined)[]) {
    for (const stream of streams) {
      let partial = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        this.all.push(...lines.filter((line) => line.trim() !== ''));
      });
    }
  }
}

interface Report {
  id: number;
  ok: boolean;
  value?: unknown;
  name?: string;
  message?: string;
}

/** The client fixture process: commands on stdin, reports on fd 3. */
class ClientProcess {
  readonly child: ChildProcess;
  readonly lines: Lines;
  readonly #pending = new Map<number, (report: Report) => void>();
  #nextId = 0;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', CLIENT_PROGRAM], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.lines = new Lines(this.child.stdout, this.child.stderr);
    let partial = '';
    (this.child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const report = JSON.parse(line) as Report;
        this.#pending.get(report.id)?.(report);
      }
    });
  }

  send(command: Record<string, unknown>): Promise<Report> {
    const id = ++this.#nextId;
    const reply = new Promise<Report>((resolve) => this.#pending.set(id, resolve));
    (this.child.stdin as Writable).write(`${JSON.stringify({ ...command, id })}\n`);
    return reply;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin?.end();
    setTimeout(() => this.child.kill('SIGKILL'), 10_000).unref();
    await exited;
  }
}

/** The scheduler app as a process; resolves once it logged its port. */
async function startScheduler(env: Record<string, string>) {
  const child = spawn(process.execPath, ['apps/scheduler/dist/main.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLOTILLA_SCHEDULER_PORT: '0', FLOTILLA_SCHEDULER_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = new Lines(child.stdout, child.stderr);
  const port = await new Promise<number>((resolve, reject) => {
    const onData = () => {
      for (const line of lines.all) {
        if (line.includes('scheduler listening')) resolve(JSON.parse(line).port as number);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`scheduler exited with ${code}: ${lines.all.join('\n')}`)));
  });
  return {
    child,
    lines,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let dir: string;
let server: RedisServerProcess;
let worker: WorkerProcess;
let workerLines: Lines;
let scheduler: Awaited<ReturnType<typeof startScheduler>>;
let client: ClientProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-outage-'));
  server = await startRedisServer({ appendOnly: true, dir });
  const env = { REDIS_URL: server.url, FLOTILLA_PREFIX: PREFIX, LOG_LEVEL: 'info' };
  worker = await startWorker({ ...env, FLOTILLA_AGENTS: './test/apps/fixtures/app-agents.ts' });
  workerLines = new Lines(worker.child.stdout, worker.child.stderr);
  scheduler = await startScheduler({ ...env, FLOTILLA_REQUEST_TIMEOUT_MS: String(SHORT_TIMEOUT_MS) });
  client = new ClientProcess({ ...env, OUTAGE_SHORT_TIMEOUT_MS: String(SHORT_TIMEOUT_MS) });
});

afterAll(async () => {
  await client?.stop();
  await scheduler?.stop();
  await worker?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('while Redis answers', () => {
  it('lets result() wait for a run longer than the request timeout', async () => {
    expect(PACED_MODEL_DELAY_MS).toBeGreaterThan(SHORT_TIMEOUT_MS);
    const paced = await client.send({ op: 'submit', client: 'short', agent: 'paced' });
    expect(await client.send({ op: 'result', client: 'short', runId: paced.value })).toMatchObject({
      ok: true,
      value: 'done at last',
    });
  });
});

describe('when Redis is down for 3 s', () => {
  it('fails bounded calls with RedisUnavailableError, prints a few JSON lines, and recovers', async () => {
    const waiting = await client.send({ op: 'submit', client: 'short', agent: 'waiting' });
    const paced = await client.send({ op: 'submit', client: 'patient', agent: 'paced' });
    expect(waiting.ok && paced.ok, JSON.stringify([waiting, paced])).toBe(true);
    const waitingRunId = waiting.value as string;
    // Waits on a run that outlives the outage: bounded only while Redis does not answer.
    const shortWait = client.send({ op: 'result', client: 'short', runId: waitingRunId });
    const patientWait = client.send({ op: 'result', client: 'patient', runId: paced.value });

    const before = {
      worker: workerLines.all.length,
      scheduler: scheduler.lines.all.length,
      client: client.lines.all.length,
    };
    await server.stop();
    const down = Date.now();
    const [getRun, submit, httpGet, waitDuringOutage] = await Promise.all([
      client.send({ op: 'getRun', client: 'short', runId: waitingRunId }),
      client.send({ op: 'submit', client: 'short', agent: 'chat', input: { message: 'hi' } }),
      fetch(`${scheduler.url}/runs/${waitingRunId}`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { error?: { name: string } },
      })),
      shortWait,
    ]);
    // The outage lasts at least 3 s, and until every call above answered.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 3000 - (Date.now() - down))));
    server = await startRedisServer({ appendOnly: true, dir, port: server.port });

    expect(getRun).toMatchObject({ ok: false, name: 'RedisUnavailableError' });
    expect(getRun.message).toContain(`127.0.0.1:${server.port}`);
    expect(submit).toMatchObject({ ok: false, name: 'RedisUnavailableError' });
    expect(waitDuringOutage).toMatchObject({ ok: false, name: 'RedisUnavailableError' });
    expect(httpGet).toMatchObject({ status: 503, body: { error: { name: 'RedisUnavailableError' } } });

    // After: the patient wait ends with the run's output, and a new run completes.
    expect(await patientWait).toMatchObject({ ok: true, value: 'done at last' });
    const after = await client.send({
      op: 'submit',
      client: 'short',
      agent: 'chat',
      input: { message: 'back?' },
    });
    expect(after.ok, JSON.stringify(after)).toBe(true);
    expect(await client.send({ op: 'result', client: 'short', runId: after.value })).toMatchObject({
      ok: true,
      value: 'you said "back?" (user messages so far: 1)',
    });
    const httpAfter = await fetch(`${scheduler.url}/runs/${waitingRunId}`);
    expect(httpAfter.status).toBe(200);
    expect(await client.send({ op: 'cancel', client: 'short', runId: waitingRunId })).toMatchObject({
      ok: true,
    });

    const printed = {
      worker: workerLines.all.slice(before.worker),
      scheduler: scheduler.lines.all.slice(before.scheduler),
      client: client.lines.all.slice(before.client),
    };
    console.log(
      'lines printed from the outage to the first run after it:',
      Object.fromEntries(Object.entries(printed).map(([name, lines]) => [name, lines.length])),
    );
    for (const [name, lines] of Object.entries(printed)) {
      for (const line of lines) expect(() => JSON.parse(line), `${name} printed: ${line}`).not.toThrow();
      expect(lines.length, `${name} printed:\n${lines.join('\n')}`).toBeLessThanOrEqual(
        MAX_LINES_PER_PROCESS,
      );
    }
  });
});

describe('when Redis is paused and answers nothing', () => {
  it('fails bounded calls with RedisUnavailableError and lets a waiting result() finish after', async () => {
    const paced = await client.send({ op: 'submit', client: 'patient', agent: 'paced' });
    expect(paced.ok, JSON.stringify(paced)).toBe(true);
    const patientWait = client.send({ op: 'result', client: 'patient', runId: paced.value });
    const pid = await redisServerPid(server.url);
    process.kill(pid, 'SIGSTOP');
    let getRun: Report;
    try {
      getRun = await client.send({ op: 'getRun', client: 'short', runId: paced.value });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(getRun).toMatchObject({ ok: false, name: 'RedisUnavailableError' });
    expect(await patientWait).toMatchObject({ ok: true, value: 'done at last' });
  });
});

/** The process id of the redis-server behind `url`, from `INFO server`. */
async function redisServerPid(url: string): Promise<number> {
  const redis = new Redis(url);
  try {
    const info = await redis.info('server');
    return Number(/process_id:(\d+)/.exec(info)?.[1]);
  } finally {
    await redis.quit();
  }
}
