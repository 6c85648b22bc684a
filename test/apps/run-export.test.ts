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
