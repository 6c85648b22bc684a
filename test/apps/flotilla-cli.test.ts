/**
 * The `flotilla` CLI as a real process (the built `apps/scheduler/dist/cli/flotilla.js`) against
 * the scheduler API (in this process) and a real worker app process.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { call, waitForRun } from './support/http.js';
import { type CliResult, runFlotilla } from './support/run-flotilla.js';
import { useScheduler } from './support/use-scheduler.js';
import { useWorkerProcess } from './support/use-worker-process.js';
import { REPO_ROOT } from './support/worker-process.js';

const redis = useRedis(import.meta.filename);
const worker = useWorkerProcess(redis);
const scheduler = useScheduler(redis);

/** Runs `flotilla ...args` against this file's scheduler. */
function flotilla(
  args: string[],
  options: { token?: string | null; stdin?: string } = {},
): Promise<CliResult> {
  return runFlotilla(scheduler.url, args, options);
}

describe('flotilla submit', () => {
  it('prints the run id of the queued run', async () => {
    const result = await flotilla(['submit', 'research', '{"question":"stalled jobs?"}']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ runId: expect.any(String) });
  });

  it('with --wait follows the run and prints its record', async () => {
    const result = await flotilla(['submit', 'research', '-', '--wait'], {
      stdin: '{"question":"child agents?"}',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: 'succeeded',
      output: { sources: ['child-agents'] },
    });
  });

  it('with --wait exits 1 when the run does not succeed', async () => {
    // No worker serves the agent: the run waits until it is cancelled.
    const runId = `cli-${randomUUID()}`;
    const waited = flotilla(['submit', 'no-such-agent', '{}', '--run-id', runId, '--wait']);
    await waitForRun(scheduler.url, runId, (run) => run.status === 'queued');
    await call(scheduler.url, 'POST', `/runs/${runId}/cancel`);
    const result = await waited;
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'cancelled', error: { name: 'AbortError' } });
  });

  it('exits 1 with the API error when the token is missing', async () => {
    const result = await flotilla(['submit', 'research', '{}'], { token: null });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('UnauthorizedError');
  });

  it('exits 2 with the usage when the input is not JSON', async () => {
    const result = await flotilla(['submit', 'research', '{question}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('input is not JSON');
    expect(result.stderr).toContain('Usage: flotilla');
  });
});

describe('flotilla status, events and cancel', () => {
  it('prints the events of a run as JSON lines, ending with run-end', async () => {
    const { stdout } = await flotilla(['submit', 'research', '{"question":"conversation store?"}']);
    const { runId } = JSON.parse(stdout) as { runId: string };
    const result = await flotilla(['events', runId]);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]?.type).toBe('run-start');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'succeeded' });
    const status = await flotilla(['status', runId]);
    expect(JSON.parse(status.stdout)).toMatchObject({ runId, status: 'succeeded' });
  });

  it('cancels a running run', async () => {
    const { stdout } = await flotilla(['submit', 'waiting', '{}']);
    const { runId } = JSON.parse(stdout) as { runId: string };
    await waitForRun(scheduler.url, runId, (run) => run.status === 'running');
    const result = await flotilla(['cancel', runId]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ runId });
    await waitForRun(scheduler.url, runId, (run) => run.status === 'cancelled');
  });

  it('exits 1 with RunNotFoundError for an unknown run', async () => {
    const result = await flotilla(['status', 'never-submitted']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('RunNotFoundError');
  });

  it('exits 2 with the usage for an unknown command', async () => {
    const result = await flotilla(['launch']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "launch"');
  });
});

describe('flotilla conversation', () => {
  it('prints a stored conversation at a version', async () => {
    const conversationId = `cli-${Date.now()}`;
    await flotilla(['submit', 'chat', '{"message":"hi"}', '--conversation', conversationId, '--wait']);
    const result = await flotilla(['conversation', conversationId, '--version', '1']);
    expect(result.code).toBe(0);
    const conversation = JSON.parse(result.stdout) as { messages: { content: string }[] };
    expect(conversation.messages.map((message) => message.content)).toContain('hi');
  });
});

describe('flotilla workers', () => {
  it('prints the live workers as a table, and as JSON with --json', async () => {
    const pid = worker.process.child.pid;
    const table = await flotilla(['workers']);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header?.split(/\s+/)).toEqual(['WORKER', 'HOST', 'PID', 'BUILD', 'ACTIVE', 'AGENTS', 'BEAT']);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.split(/\s+/)).toEqual([
      expect.any(String),
      expect.any(String),
      String(pid),
      '-',
      '0/4',
      expect.stringContaining('research'),
      expect.stringMatching(/^\d+(\.\d)?s$/),
      'ago',
    ]);
    const json = await flotilla(['workers', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ pid, concurrency: 4 })]);
  });
});

describe('flotilla schedules', () => {
  it('sets a schedule, lists it as a table and as JSON, and removes it (then 404)', async () => {
    const set = await flotilla([
      'schedules',
      'set',
      'cli-nightly',
      'research',
      '{"question":"q"}',
      '--cron',
      '0 3 * * *',
    ]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      id: 'cli-nightly',
      agentId: 'research',
      cron: '0 3 * * *',
    });
    const table = await flotilla(['schedules', 'list']);
    expect(table.code).toBe(0);
    const [header, row] = table.stdout.trimEnd().split('\n');
    expect(header?.split(/\s+/)).toEqual(['SCHEDULE', 'AGENT', 'WHEN', 'NEXT', 'SERVED']);
    expect(row).toMatch(/^cli-nightly\s+research\s+cron 0 3 \* \* \*/);
    const json = await flotilla(['schedules', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ id: 'cli-nightly', served: true })]);
    expect((await flotilla(['schedules', 'remove', 'cli-nightly'])).code).toBe(0);
    const again = await flotilla(['schedules', 'remove', 'cli-nightly']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ScheduleNotFoundError');
  });
});

describe('flotilla without a command', () => {
  it('prints the usage on stderr and exits 2', async () => {
    const result = await flotilla([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Missing <command>.');
    expect(result.stderr).toContain('Usage: flotilla <command>');
  });

  it('with --help prints the usage on stdout and exits 0', async () => {
    const result = await flotilla(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: flotilla <command>');
  });

  it('runs as the `flotilla` bin the workspace links (what `npx flotilla` starts)', async () => {
    const child = spawn(join(REPO_ROOT, 'node_modules/.bin/flotilla'), ['--help'], { cwd: REPO_ROOT });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: flotilla <command>');
  });
});
