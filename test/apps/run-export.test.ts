/**
 * Run export and replay end to end: a worker (in this process) records a run on Redis;
 * `client.exportRun` and `GET /runs/{id}/export` export it as a schema-checked document that
 * round-trips through JSON; the built `flotilla` CLI writes it to a file (`runs export --out`)
 * and replays it against the recorded code (exit 0) and against changed code (exit 1, printing
 * the position and both fingerprints).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyAgent, ModelAdapter } from '@flotilla/runtime';
import { createClient, type FlotillaClient, parseRunExport, type RunExport } from '@flotilla/runtime/client';
import { replayRun } from '@flotilla/runtime/testing';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { call } from './support/http.js';
import { runFlotilla } from './support/run-flotilla.js';
import { useScheduler } from './support/use-scheduler.js';

const redis = useRedis(import.meta.filename);
const scheduler = useScheduler(redis);
const RECORDED = 'test/apps/fixtures/replay-agents.mjs';
const CHANGED = 'test/apps/fixtures/replay-agents-changed.mjs';

interface AgentModule {
  agents: AnyAgent[];
  models: Record<string, ModelAdapter>;
}

let worker: FlotillaWorker;
let client: FlotillaClient;
let recorded: AgentModule;
let directory: string;
let runId: string;

beforeAll(async () => {
  // A plain JavaScript module (the CLI imports it without a TypeScript loader): typed here.
  const module: string = './fixtures/replay-agents.mjs';
  recorded = (await import(module)) as AgentModule;
  worker = createWorker({
    agents: recorded.agents,
    models: recorded.models,
    connection: redis.url,
    prefix: redis.prefix,
    logger: pino({ level: 'silent' }),
  });
  await worker.waitUntilReady();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  directory = await mkdtemp(join(tmpdir(), 'flotilla-replay-'));
  const run = await client.submit<string>('replay-writer', { topic: 'tides' });
  expect(await run.result()).toBe('drafted: notes on tides');
  runId = run.id;
});

afterAll(async () => {
  await client?.close();
  await worker?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('client.exportRun', () => {
  it('exports the record, input and journal as a document that round-trips through JSON', async () => {
    const exported = (await client.exportRun(runId)) as RunExport;
    expect(exported).toMatchObject({
      format: 'flotilla.run-export',
      version: 1,
      run: { runId, agentId: 'replay-writer', status: 'succeeded', output: 'drafted: notes on tides' },
      input: { topic: 'tides' },
      children: [],
    });
    expect(exported.journal.map(({ position, entry }) => [position, entry.kind])).toEqual([
      ['root/agent:replay-writer:0/g0/model:0', 'model-turn'],
      ['root/agent:replay-writer:0/g0/tool:callTool-lookup:0', 'tool'],
    ]);
    expect(parseRunExport(JSON.parse(JSON.stringify(exported)))).toEqual(exported);
    expect(
      await replayRun(recorded.agents[0] as AnyAgent, exported, { models: recorded.models }),
    ).toMatchObject({
      ok: true,
      complete: true,
    });
  });

  it('answers undefined for an unknown run and for another tenant’s view', async () => {
    expect(await client.exportRun('no-such-run')).toBeUndefined();
    expect(await client.forTenant('acme').exportRun(runId)).toBeUndefined();
  });
});

describe('the export of a run tree', () => {
  it("lists the parent's child runs, and replays the parent and the child run each from its own export", async () => {
    const run = await client.submit<string[]>('replay-desk', { topics: ['tides', 'reefs'] });
    expect(await run.result()).toEqual(['drafted: notes on tides', 'drafted: notes on reefs']);
    const [writer, desk] = recorded.agents as [AnyAgent, AnyAgent];
    const parent = (await client.exportRun(run.id)) as RunExport;
    const positions = ['agent:replay-writer:0', 'agent:replay-writer:1'].map(
      (segment) => `root/agent:replay-desk:0/g0/${segment}`,
    );
    expect(parent.children.map(({ position, status }) => [position, status])).toEqual(
      positions.map((position) => [position, 'succeeded']),
    );
    expect(parent.children[0]).toMatchObject({ fingerprint: expect.stringMatching(/^agent:replay-writer:/) });
    const options = { models: recorded.models };
    expect(await replayRun(desk, parent, options)).toMatchObject({
      ok: true,
      complete: true,
      servedSteps: 2,
    });
    // As if the parent had not resumed yet: its child outcomes come from the child runs' records.
    const unresumed = {
      ...parent,
      journal: parent.journal.filter(({ position }) => !positions.includes(position)),
    };
    expect(await replayRun(desk, unresumed, options)).toMatchObject({
      ok: true,
      complete: true,
      servedSteps: 2,
    });
    // A child run replays under its own callPath.
    const childId = parent.children[1]?.runId ?? '';
    const child = (await client.exportRun(childId)) as RunExport;
    expect(child.run).toMatchObject({ callPath: positions[1], parentRunId: run.id, rootRunId: run.id });
    expect(child.input).toEqual({ topic: 'reefs' });
    expect(child.journal.every(({ position }) => position.startsWith(`${positions[1]}/g0/`))).toBe(true);
    expect(await replayRun(writer, child, options)).toMatchObject({
      ok: true,
      complete: true,
      output: 'drafted: notes on reefs',
    });
  });
});

describe('the export of a run with durable waits', () => {
  it('replays the signal, its timeout start and the sleep from the journal, while waiting and once ended', async () => {
    const gate = recorded.agents[2] as AnyAgent;
    const run = await client.submit('replay-gate', {});
    const waiting = await waitUntil(
      async () =>
        (await client.getRun(run.id))?.status === 'waiting' ? client.exportRun(run.id) : undefined,
      { what: `run ${run.id} waiting for its signal` },
    );
    // In flight: the export names the wait the run is parked on (not journaled yet), and the
    // replay stops there.
    expect((waiting as RunExport).pendingSteps).toEqual(['root/agent:replay-gate:0/g0/signal:go:0']);
    expect(await replayRun(gate, waiting as RunExport)).toMatchObject({
      ok: true,
      complete: false,
      servedSteps: 1,
    });
    await client.signal(run.id, 'go', 'now');
    expect(await run.result()).toEqual({ opened: 'now' });
    const ended = (await client.exportRun(run.id)) as RunExport;
    expect(ended.journal.map(({ entry }) => entry.kind)).toEqual(['signal', 'signal', 'sleep', 'sleep']);
    // The wait it was parked on is journaled now: nothing is pending any more.
    expect(ended.pendingSteps).toBeUndefined();
    expect(await replayRun(gate, ended)).toMatchObject({
      ok: true,
      complete: true,
      output: { opened: 'now' },
    });
  });
});

describe('the export of a run on a conversation', () => {
  it('holds the conversation at the version the run loaded, and the replay reads it there', async () => {
    const chat = recorded.agents[3] as AnyAgent;
    const conversationId = `replay-chat-${runId}`;
    await (await client.submit('replay-chat', { message: 'first' }, { conversationId })).result();
    const second = await client.submit('replay-chat', { message: 'second' }, { conversationId });
    await second.result();
    const exported = (await client.exportRun(second.id)) as RunExport;
    expect(exported.run.conversationId).toBe(conversationId);
    expect(exported.conversations).toHaveLength(1);
    expect(exported.conversations?.[0]).toMatchObject({ conversationId, version: 1 });
    expect(exported.conversations?.[0]?.conversation.messages.map((message) => message.content)).toEqual([
      'first',
      'drafted',
    ]);
    expect(await replayRun(chat, exported, { models: recorded.models })).toMatchObject({
      ok: true,
      complete: true,
      output: 'drafted',
    });
  });
});

describe('GET /runs/{id}/export', () => {
  it('answers the export, and 404 for an unknown run', async () => {
    const answer = await call<RunExport>(scheduler.url, 'GET', `/runs/${runId}/export`);
    expect(answer.status).toBe(200);
    expect(parseRunExport(answer.body).run).toMatchObject({ runId, status: 'succeeded' });
    const missing = await call(scheduler.url, 'GET', '/runs/no-such-run/export');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { name: 'RunNotFoundError' } });
    const openapi = await call<{ paths: Record<string, unknown> }>(scheduler.url, 'GET', '/openapi.json');
    expect(openapi.body.paths).toHaveProperty('/runs/{id}/export');
  });
});

describe('flotilla runs export and flotilla replay', () => {
  it('writes the export, replays it against the recorded code (exit 0) and fails on changed code (exit 1)', async () => {
    const file = join(directory, `${runId}.json`);
    const exported = await runFlotilla(scheduler.url, ['runs', 'export', runId, '--out', file]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('2 journal entries');
    expect(parseRunExport(JSON.parse(await readFile(file, 'utf8'))).run.runId).toBe(runId);

    const same = await runFlotilla(scheduler.url, ['replay', file, '--agents', RECORDED]);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^ok .* replayed 2 steps to its end/);

    const changed = await runFlotilla(scheduler.url, ['replay', file, '--agents', CHANGED]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('DIVERGED');
    expect(changed.stdout).toContain('changed at root/agent:replay-writer:0/g0/model:0');
    expect(changed.stdout).toMatch(
      /recorded: model-turn model-turn\/v2:position=\w+,model=\w+,tools=\w+,prompt=(\w+)/,
    );
    expect(changed.stdout).toMatch(/current: {2}model-turn model-turn\/v2:/);
    expect(changed.stdout).toContain('changed:  prompt');
  });

  it('exits 2 without files or --agents, and 1 for a file that is not a run export', async () => {
    expect((await runFlotilla(scheduler.url, ['replay', '--agents', RECORDED])).code).toBe(2);
    expect((await runFlotilla(scheduler.url, ['replay', 'x.json'])).code).toBe(2);
    const notExport = await runFlotilla(scheduler.url, ['replay', 'package.json', '--agents', RECORDED]);
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toContain('InvalidRunExportError');
  });
});
