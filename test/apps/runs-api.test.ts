/**
 * Finding runs through the scheduler's HTTP API (in this process) in front of a real worker app
 * process: `GET /runs` (filters, paging, tenants by token) and `GET /runs/{id}/tree`, and both
 * in `/openapi.json`.
 */
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { call } from './support/http.js';
import { API_TOKEN, useScheduler } from './support/use-scheduler.js';
import { useWorkerProcess } from './support/use-worker-process.js';

const ACME = 'acme-token-0123456789abcdef';
const GLOBEX = 'globex-token-0123456789abcdef';

const redis = useRedis(import.meta.filename);
useWorkerProcess(redis);
const scheduler = useScheduler(redis, {
  FLOTILLA_API_TOKENS: JSON.stringify([
    { name: 'acme-app', token: ACME, tenant: 'acme' },
    { name: 'globex-app', token: GLOBEX, tenant: 'globex' },
  ]),
});

interface ListBody {
  runs: { runId: string; agentId: string; status: string; tenant?: string }[];
  nextCursor?: string;
  error?: { name: string; message: string };
}

interface TreeNode {
  runId: string;
  agentId: string;
  status: string;
  children: TreeNode[];
}

async function submit(token: string, body: Record<string, unknown>): Promise<string> {
  const answer = await call<{ runId: string }>(scheduler.url, 'POST', '/runs', { body, token });
  expect(answer.status).toBe(202);
  return answer.body.runId;
}

function list(token: string, query: string) {
  return call<ListBody>(scheduler.url, 'GET', `/runs${query}`, { token });
}

describe('GET /runs', () => {
  it('lists a tenant’s own runs only, with its ids, newest first, page by page', async () => {
    for (const runId of ['a1', 'a2', 'a3'])
      await submit(ACME, { agentId: 'chat', input: { message: runId }, runId });
    await submit(GLOBEX, { agentId: 'chat', input: { message: 'g' }, runId: 'g1' });
    await submit(API_TOKEN, { agentId: 'chat', input: { message: 'n' }, runId: 'n1' });
    const first = await list(ACME, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.runs.map((run) => run.runId)).toEqual(['a3', 'a2']);
    expect(first.body.runs[0]?.tenant).toBe('acme');
    const second = await list(ACME, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.runs.map((run) => run.runId)).toEqual(['a1']);
    expect((await list(GLOBEX, '')).body.runs.map((run) => run.runId)).toEqual(['g1']);
    expect((await list(API_TOKEN, '')).body.runs.map((run) => run.runId)).toEqual(['n1']);
    expect((await list(API_TOKEN, '?tenant=globex')).body.runs.map((run) => run.runId)).toEqual(['g1']);
    const widened = await list(ACME, '?tenant=globex');
    expect(widened.status).toBe(400);
    expect(widened.body.error?.name).toBe('InvalidRunQueryError');
  });

  it('filters by status and agent as the records say', async () => {
    await waitUntil(
      async () => {
        const { body } = await list(ACME, '?status=succeeded&agentId=chat');
        return body.runs.length === 3 ? true : undefined;
      },
      { what: "acme's three chat runs to succeed" },
    );
    expect((await list(ACME, '?status=failed')).body.runs).toEqual([]);
  });

  it('answers 400 naming the field for a bad limit, status, cursor or an unknown parameter', async () => {
    for (const query of ['?limit=0', '?limit=1001', '?status=done', '?cursor=%21%21', '?sort=asc']) {
      const answer = await list(API_TOKEN, query);
      expect(answer.status, query).toBe(400);
    }
    expect((await list(API_TOKEN, '?cursor=bm9wZQ')).body.error?.name).toBe('InvalidRunQueryError');
  });
});

describe('GET /runs/{id}/tree', () => {
  it('gives the nested tree of a tenant’s run, and 404 to another tenant', async () => {
    const runId = await submit(ACME, {
      agentId: 'research',
      input: { question: 'child agents?' },
      runId: 'tree-1',
    });
    const tree = await waitUntil(
      async () => {
        const answer = await call<{ root: TreeNode; nodeCount: number; truncated: boolean }>(
          scheduler.url,
          'GET',
          `/runs/${runId}/tree`,
          { token: ACME },
        );
        return answer.body.root?.status === 'succeeded' ? answer.body : undefined;
      },
      { what: 'the research tree to succeed' },
    );
    expect(tree.root).toMatchObject({ runId: 'tree-1', agentId: 'research' });
    expect(tree.nodeCount).toBe(1 + tree.root.children.length);
    expect(tree.root.children.length).toBeGreaterThan(0);
    expect(tree.root.children.every((child) => child.runId.startsWith('tree-1.'))).toBe(true);
    const foreign = await call(scheduler.url, 'GET', `/runs/${runId}/tree`, { token: GLOBEX });
    expect(foreign.status).toBe(404);
  });

  it('is in the OpenAPI document with the query of GET /runs', async () => {
    const { body } = await call<{
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    }>(scheduler.url, 'GET', '/openapi.json');
    const names = body.paths['/runs']?.get?.parameters?.map((parameter) => parameter.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'status',
        'agentId',
        'rootRunId',
        'conversationId',
        'createdAfter',
        'limit',
        'cursor',
      ]),
    );
    expect(body.paths['/runs/{id}/tree']?.get).toBeDefined();
  });
});
