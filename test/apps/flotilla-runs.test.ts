/**
 * The `flotilla` CLI as a real process following runs: `runs list`, the live `runs tree`, and
 * `events` / `submit --wait` across a scheduler restart (the scheduler is a real process too,
 * killed and started again on the same port mid-run), with a real worker app process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { runKeys } from '@flotilla/runtime/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { type SchedulerProcess, startSchedulerProcess } from './support/scheduler-process.js';
import { API_TOKEN } from './support/use-scheduler.js';
import { useWorkerProcess } from './support/use-worker-process.js';
import { REPO_ROOT } from './support/worker-process.js';

const redis = useRedis(import.meta.filename);
useWorkerProcess(redis);
let scheduler: SchedulerProcess;

function startScheduler(port = '0'): Promise<SchedulerProcess> {
  return startSchedulerProcess({
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    FLOTILLA_API_TOKEN: API_TOKEN,
    FLOTILLA_SCHEDULER_PORT: port,
    LOG_LEVEL: 'info',
  });
}

beforeAll(async () => {
  scheduler = await startScheduler();
});
afterAll(async () => {
  await scheduler.stop();
});

interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `flotilla ...args` against the scheduler's URL (fixed at start: a restart keeps the port). */
function flotilla(args: string[]): RunningCli {
  const child = spawn(process.execPath, ['apps/scheduler/dist/cli/flotilla.js', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLOTILLA_API_URL: scheduler.url, FLOTILLA_API_TOKEN: API_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function submit(agentId: string, input: unknown): Promise<string> {
  const cli = flotilla(['submit', agentId, JSON.stringify(input)]);
  expect(await cli.exited).toBe(0);
  return (JSON.parse(cli.stdout()) as { runId: string }).runId;
}

describe('flotilla runs tree', () => {
  it('prints the tree again as it changes and exits 0 when the root succeeds', async () => {
    const gate = `${redis.prefix}:gate:tree`;
    const runId = await submit('gated-tree', { gate });
    const cli = flotilla(['runs', 'tree', runId, '--interval', '100']);
    // The child runs (the parent waits for it), with the parent's first progress.
    await waitUntil(async () => (/gated\s+running/.test(cli.stdout()) ? true : undefined), {
      what: 'the tree with its child running',
    });
    await redis.redis.set(gate, 'open');
    expect(await cli.exited).toBe(0);
    const output = cli.stdout();
    console.log(`runs tree output:\n${output}`);
    const renderings = output.trim().split('\n\n');
    expect(renderings.length).toBeGreaterThanOrEqual(2);
    const first = renderings.find((text) => /gated\s+running/.test(text)) ?? '';
    expect(first).toMatch(new RegExp(`^${runId}\\s+gated-tree\\s+waiting`));
    expect(first).toContain('progress {"step":"asking the child"}');
    const last = renderings.at(-1) ?? '';
    expect(last.split('\n')).toHaveLength(2);
    expect(last).toMatch(new RegExp(`^${runId}\\s+gated-tree\\s+succeeded`));
    expect(last).toMatch(/\n {2}└ \S+\s+gated\s+succeeded/);
    expect(last).toContain('progress {"step":"child answered"}');
  });

  it('exits 1 when the root fails, and 1 with RunNotFoundError for an unknown run', async () => {
    const runId = await submit('leaky', {}); // its model call fails
    await waitUntil(
      async () => {
        const once = flotilla(['runs', 'tree', runId, '--once']);
        await once.exited;
        return once.stdout().includes('failed') ? true : undefined;
      },
      { what: 'the run to fail' },
    );
    const cli = flotilla(['runs', 'tree', runId]);
    expect(await cli.exited).toBe(1);
    const missing = flotilla(['runs', 'tree', 'never-submitted']);
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toContain('RunNotFoundError');
  });
});

describe('flotilla runs list', () => {
  it('prints a table of runs, newest first, filtered by status and agent', async () => {
    const cli = flotilla(['runs', 'list', '--agent', 'gated-tree', '--status', 'succeeded']);
    expect(await cli.exited).toBe(0);
    const lines = cli.stdout().trim().split('\n');
    expect(lines[0]).toMatch(/^RUN\s+AGENT\s+STATUS\s+CREATED/);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.slice(1).every((line) => /\sgated-tree\s+succeeded\s/.test(line))).toBe(true);
    const bad = flotilla(['runs', 'list', '--limit', '5000']);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toContain('limit');
  });
});

describe('following a run across a scheduler restart', () => {
  it('events and submit --wait reconnect with Last-Event-ID: every event once, exit 0', async () => {
    const gate = `${redis.prefix}:gate:restart`;
    const runId = await submit('gated-tree', { gate });
    const events = flotilla(['events', runId]);
    const waiting = flotilla(['submit', 'gated-tree', JSON.stringify({ gate }), '--run-id', runId, '--wait']);
    await waitUntil(async () => (events.stdout().includes('"child-start"') ? true : undefined), {
      what: 'the child-start event',
    });
    const port = String(scheduler.port);
    scheduler.child.kill('SIGKILL');
    await scheduler.exited;
    // The run ends while no scheduler is up; both followers must catch up after the restart.
    await redis.redis.set(gate, 'open');
    await waitUntil(
      async () =>
        (await redis.redis.hget(runKeys(redis.prefix, runId).record, 'status')) === 'succeeded'
          ? true
          : undefined,
      { what: 'the run to end while no scheduler is up' },
    );
    scheduler = await startScheduler(port);
    expect(await events.exited, events.stderr()).toBe(0);
    expect(await waiting.exited, waiting.stderr()).toBe(0);
    expect(JSON.parse(waiting.stdout())).toMatchObject({ runId, status: 'succeeded' });
    const seen = events
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; at: number });
    // The same events, in the same order, as a reader that never lost the scheduler.
    const again = flotilla(['events', runId]);
    expect(await again.exited).toBe(0);
    const parse = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown);
    expect(seen).toEqual(parse(again.stdout()));
    expect(seen.filter((event) => event.type === 'run-end')).toHaveLength(1);
    expect(seen.filter((event) => event.type === 'progress')).toHaveLength(2);
  });
});
