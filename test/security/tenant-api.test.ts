/**
 * Tenants through the scheduler's HTTP API: two named tokens (`FLOTILLA_API_TOKENS`), each with
 * its tenant, and the single `FLOTILLA_API_TOKEN` of no tenant. What is not yours is 404; the
 * same ids in two tenants are two runs; a run id reused with other content is 409.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../apps/support/http.js';
import { API_TOKEN, useScheduler } from '../apps/support/use-scheduler.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { useSecurityWorker } from './fixtures/use-security-worker.js';

const ACME = 'acme-token-0123456789abcdef';
const GLOBEX = 'globex-token-0123456789abcdef';

const redis = useRedis(import.meta.filename);
useSecurityWorker(redis);
const scheduler = useScheduler(redis, {
  FLOTILLA_API_TOKENS: JSON.stringify([
    { name: 'acme-app', token: ACME, tenant: 'acme' },
    { name: 'globex-app', token: GLOBEX, tenant: 'globex' },
  ]),
});

interface RunBody {
  runId: string;
  status: string;
  tenant?: string;
  output?: unknown;
}

async function submit(token: string, body: Record<string, unknown>) {
  return call<{ runId: string; error?: { name: string } }>(scheduler.url, 'POST', '/runs', { body, token });
}

async function finished(token: string, runId: string): Promise<RunBody> {
  return waitUntil(
    async () => {
      const answer = await call<RunBody>(scheduler.url, 'GET', `/runs/${runId}`, { token });
      return answer.status === 200 && answer.body.status === 'succeeded' ? answer.body : undefined;
    },
    { what: `run ${runId} to succeed` },
  );
}

describe('two tenants through the API', () => {
  it('submit the same run id as two runs, each reading only its own', async () => {
    const runId = `api-${randomUUID()}`;
    expect((await submit(ACME, { agentId: 'echo', input: { t: 'acme' }, runId })).status).toBe(202);
    expect((await submit(GLOBEX, { agentId: 'echo', input: { t: 'globex' }, runId })).status).toBe(202);
    expect(await finished(ACME, runId)).toMatchObject({
      runId,
      tenant: 'acme',
      output: { echoed: { t: 'acme' } },
    });
    expect(await finished(GLOBEX, runId)).toMatchObject({
      tenant: 'globex',
      output: { echoed: { t: 'globex' } },
    });
  });

  it("answer 404 for another tenant's run: read, events, cancel; the tenantless token sees neither", async () => {
    const runId = `api-private-${randomUUID()}`;
    await submit(ACME, { agentId: 'slow', runId });
    await waitUntil(
      async () => {
        const answer = await call<RunBody>(scheduler.url, 'GET', `/runs/${runId}`, { token: ACME });
        return answer.body.status === 'running' ? true : undefined;
      },
      { what: 'the slow run to start' },
    );
    for (const token of [GLOBEX, API_TOKEN]) {
      expect((await call(scheduler.url, 'GET', `/runs/${runId}`, { token })).status).toBe(404);
      expect((await call(scheduler.url, 'GET', `/runs/${runId}/events`, { token })).status).toBe(404);
      const cancel = await call(scheduler.url, 'POST', `/runs/${runId}/cancel`, { token });
      expect(cancel).toMatchObject({ status: 404, body: { error: { name: 'RunNotFoundError' } } });
    }
    const mine = await call<RunBody>(scheduler.url, 'GET', `/runs/${runId}`, { token: ACME });
    expect(mine.body.status).toBe('running');
    expect((await call(scheduler.url, 'POST', `/runs/${runId}/cancel`, { token: ACME })).status).toBe(202);
  });

  it("answer 404 for another tenant's conversation and never append to it", async () => {
    const conversationId = `api-conv-${randomUUID()}`;
    const first = await submit(ACME, { agentId: 'chat', input: { message: 'acme only' }, conversationId });
    await finished(ACME, first.body.runId);
    const path = `/conversations/${conversationId}`;
    expect((await call(scheduler.url, 'GET', path, { token: GLOBEX })).status).toBe(404);
    expect((await call(scheduler.url, 'GET', path, { token: API_TOKEN })).status).toBe(404);
    const second = await submit(GLOBEX, { agentId: 'chat', input: { message: 'globex' }, conversationId });
    expect((await finished(GLOBEX, second.body.runId)).output).toBe(
      'reply to "globex" (user messages seen: 1)',
    );
    const acme = await call<{ messages: unknown[] }>(scheduler.url, 'GET', path, { token: ACME });
    expect(acme.body.messages).toHaveLength(2);
  });

  it('answer 409 RunIdConflictError when a run id is reused with other content', async () => {
    const runId = `api-reuse-${randomUUID()}`;
    expect((await submit(ACME, { agentId: 'echo', input: { n: 1 }, runId })).status).toBe(202);
    expect((await submit(ACME, { agentId: 'echo', input: { n: 1 }, runId })).status).toBe(202);
    const reuse = await submit(ACME, { agentId: 'echo', input: { n: 2 }, runId });
    expect(reuse).toMatchObject({ status: 409, body: { error: { name: 'RunIdConflictError' } } });
  });

  it('answer 400 for ids that break the id rule, and 401 for an unknown token', async () => {
    for (const runId of ['a:b', '..', 'x{y}', 'ünï']) {
      expect((await submit(ACME, { agentId: 'echo', runId })).status).toBe(400);
    }
    expect((await submit('acme-token-0123456789abcdeX', { agentId: 'echo' })).status).toBe(401);
  });
});
