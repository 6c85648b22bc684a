/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core) against the
 * scheduler served in this process and a real worker app process running the dashboard's
 * fixture agents on mock models: signing in, the live runs table and agents, a three-level tree
 * going live, cancelling a tree after confirmation, a failed run's typed error, a conversation's
 * versions, diff and compiled payload, the fleet, approving and rejecting tool calls that await
 * a person, an XSS attempt that must stay text, and
 * axe-core on every view. Screenshots of each view go to `test-artifacts/dashboard/`.
 */
import { randomUUID } from 'node:crypto';
import { RedisConversationStore } from '@flotilla/runtime/internals';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '../apps/support/http.js';
import { API_TOKEN, useScheduler } from '../apps/support/use-scheduler.js';
import { useWorkerProcess } from '../apps/support/use-worker-process.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { XSS_ANSWER } from './fixtures/dashboard-agents.js';
import { expectAccessible, screenshot, signIn, useBrowser } from './support/dashboard-browser.js';

const redis = useRedis(import.meta.filename);
useWorkerProcess(redis, { FLOTILLA_AGENTS: './test/dashboard/fixtures/dashboard-agents.ts' });
const scheduler = useScheduler(redis);
const browser = useBrowser();

async function submit(body: Record<string, unknown>): Promise<string> {
  const answer = await call<{ runId: string }>(scheduler.url, 'POST', '/runs', { body, token: API_TOKEN });
  expect(answer.status).toBe(202);
  return answer.body.runId;
}

async function recordOf(runId: string): Promise<{ status: string }> {
  return (await call<{ status: string }>(scheduler.url, 'GET', `/runs/${runId}`, { token: API_TOKEN })).body;
}

function ended(runId: string) {
  return waitUntil(
    async () => {
      const record = await recordOf(runId);
      return ['succeeded', 'failed', 'cancelled'].includes(record.status) ? record : undefined;
    },
    { what: `run ${runId} to end` },
  );
}

/** Polls a probe of the page until the matcher passes (30 s at most: the page follows other processes). */
function eventually<T>(probe: () => T | Promise<T>) {
  return expect.poll(probe, { timeout: 30_000, interval: 100 });
}

/** Goes to a view inside the app (a page load would drop the token the app keeps in memory). */
async function go(page: Page, hash: string): Promise<void> {
  // Runs in the page (this file has no DOM types).
  await page.evaluate((target) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = target;
  }, hash);
}

async function signedInPage() {
  const opened = await browser.newPage();
  await signIn(opened.page, scheduler.url, API_TOKEN);
  return opened;
}

// Each test waits on a worker process and a browser; on a loaded machine that takes longer than the default.
describe('the dashboard at /ui', { timeout: 180_000 }, () => {
  it('is served as static files with a strict CSP, content types and caching, without a token', async () => {
    const page = await fetch(`${scheduler.url}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${scheduler.url}${script}`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${scheduler.url}/ui/assets/missing.js`)).status).toBe(404);
    // The API itself still wants the token.
    expect((await fetch(`${scheduler.url}/runs`)).status).toBe(401);
  });

  it('answers GET /fleet and GET /conversations/{id}/compiled, and 400 for a bad agent list or target', async () => {
    const fleet = await call<{
      workers: { agents: string[] }[];
      agents: { agentId: string; live: boolean; servedBy: string[]; queue: Record<string, number> }[];
    }>(scheduler.url, 'GET', '/fleet?agents=dash-unserved', { token: API_TOKEN });
    expect(fleet.status).toBe(200);
    expect(fleet.body.workers[0]?.agents).toContain('dash-tree');
    expect(fleet.body.agents.find((agent) => agent.agentId === 'dash-tree')).toMatchObject({ live: true });
    expect(fleet.body.agents.find((agent) => agent.agentId === 'dash-unserved')).toEqual({
      agentId: 'dash-unserved',
      live: false,
      servedBy: [],
      queue: { waiting: 0, active: 0, delayed: 0, waitingChildren: 0 },
    });
    const badAgents = await call<{ error: { name: string } }>(scheduler.url, 'GET', '/fleet?agents=a%20b', {
      token: API_TOKEN,
    });
    expect(badAgents.status).toBe(400);
    expect(badAgents.body.error.name).toBe('InvalidRequestError');

    const conversationId = `compiled-${randomUUID()}`;
    await ended(await submit({ agentId: 'dash-chat', input: { message: 'compile me' }, conversationId }));
    const compiled = await call<{
      version: number;
      target: string;
      payload: { messages: unknown[] };
      warnings: unknown[];
    }>(scheduler.url, 'GET', `/conversations/${conversationId}/compiled?target=gemini&version=1`, {
      token: API_TOKEN,
    });
    expect(compiled.status).toBe(200);
    expect(compiled.body).toMatchObject({ version: 1, target: 'gemini' });
    // The stored turn ends with the assistant's answer: Gemini cannot take it as a prefill, and says so.
    expect(compiled.body.warnings).toEqual([expect.objectContaining({ code: 'prefill-degraded' })]);
    expect(JSON.stringify(compiled.body.payload)).toContain('compile me');
    const badTarget = await call(
      scheduler.url,
      'GET',
      `/conversations/${conversationId}/compiled?target=cohere`,
      {
        token: API_TOKEN,
      },
    );
    expect(badTarget.status).toBe(400);
    const missing = await call<{ error: { name: string } }>(
      scheduler.url,
      'GET',
      '/conversations/never-stored/compiled?target=openai',
      { token: API_TOKEN },
    );
    expect(missing.body.error.name).toBe('ConversationNotFoundError');
  });

  it('asks for the token, refuses a wrong one, and shows runs, counts and the agents served', async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(`${scheduler.url}/ui/`);
    await expectAccessible(page, 'login');
    await screenshot(page, 'login');
    await page.getByLabel('API token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain('UnauthorizedError');
    await signIn(page, scheduler.url, API_TOKEN);
    expect(page.url()).not.toContain(API_TOKEN);

    const chat = await submit({ agentId: 'dash-chat', input: { message: 'hello' } });
    await submit({ agentId: 'dash-nobody', input: {} });
    await page.locator(`tr[data-run-id="${chat}"] .status-succeeded`).waitFor();
    await page.locator('li[data-agent-id="dash-chat"]', { hasText: 'served by 1 live worker' }).waitFor();
    await page.locator('li[data-agent-id="dash-nobody"]', { hasText: 'no live worker' }).waitFor();
    await expect
      .poll(() => page.locator('a[data-status="succeeded"]').textContent())
      .toMatch(/succeeded [1-9]/);

    await page.getByRole('textbox', { name: 'Agent', exact: true }).fill('dash-nobody');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await eventually(() => page.locator('tbody tr').count()).toBe(1);
    await eventually(() => page.locator('tbody tr').textContent()).toContain('waiting for worker');
    await expectAccessible(page, 'runs');
    expect(errors).toEqual([]);
  });

  it('shows a three-level tree going live, then every run ending, with its timeline', async () => {
    const gate = `gate-${randomUUID()}`;
    const runId = await submit({ agentId: 'dash-tree', input: { gate } });
    const { page, errors } = await signedInPage();
    await go(page, `#/runs/${runId}`);
    const leaves = page.locator('li[data-level="3"]');
    await eventually(() => leaves.count()).toBe(2);
    await page.locator('li[data-level="3"][data-status="running"]').nth(1).waitFor();
    await eventually(() => page.locator('li[data-level="2"]').count()).toBe(2);
    await page.locator('.timeline [data-type="run-suspended"]').first().waitFor();
    await screenshot(page, 'run-tree-live');

    await redis.redis.set(gate, '1');
    await eventually(() => page.locator('li[data-run-id][data-status="succeeded"]').count()).toBe(5);
    await page.locator('.timeline [data-type="run-end"]').waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Output' }).textContent())
      .toContain('branch: leaf done');
    await eventually(() => page.getByRole('region', { name: 'Input' }).textContent()).toContain(gate);

    // Collapsible: closing the root hides the branches, by keyboard.
    await page.locator('li[data-level="1"] > details > summary').focus();
    await page.keyboard.press('Enter');
    await eventually(() => page.locator('li[data-level="2"]').first().isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await expectAccessible(page, 'run');
    await screenshot(page, 'run-tree');
    expect(errors).toEqual([]);
  });

  it('cancels a running tree from the UI only after confirmation', async () => {
    const runId = await submit({ agentId: 'dash-tree', input: { gate: `never-${randomUUID()}` } });
    const { page, errors } = await signedInPage();
    await go(page, `#/runs/${runId}`);
    await page.locator('li[data-level="3"][data-status="running"]').nth(1).waitFor();

    await page.getByRole('button', { name: 'Cancel run…' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel run ${runId}?` });
    await dialog.waitFor();
    await eventually(() => dialog.textContent()).toContain('its 4 child runs');
    await expectAccessible(page, 'cancel confirmation');
    await screenshot(page, 'run-cancel-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await recordOf(runId)).status).not.toBe('cancelled');

    await page.getByRole('button', { name: 'Cancel run…' }).click();
    await dialog.getByRole('button', { name: 'Cancel the run' }).click();
    await eventually(() => page.locator('li[data-run-id][data-status="cancelled"]').count()).toBe(5);
    expect((await ended(runId)).status).toBe('cancelled');
    await eventually(() => page.getByRole('button', { name: 'Cancel run…' }).count()).toBe(0);
    await screenshot(page, 'run-cancelled');
    expect(errors).toEqual([]);
  });

  it("shows a failed run's typed error", async () => {
    const runId = await submit({ agentId: 'dash-failing', input: {} });
    expect((await ended(runId)).status).toBe('failed');
    const { page, errors } = await signedInPage();
    await go(page, `#/runs/${runId}`);
    const alert = page.getByRole('alert').filter({ hasText: 'This run failed' });
    await eventually(() => alert.textContent()).toContain('ModelCallError');
    await eventually(() => alert.textContent()).toContain('context too long');
    await page
      .locator('.timeline [data-type="run-end"] .error-name', { hasText: 'ModelCallError' })
      .waitFor();
    await expectAccessible(page, 'failed run');
    await screenshot(page, 'run-failed');
    expect(errors).toEqual([]);
  });

  it('opens a conversation, switches versions with a diff, marks compacted bases and compiles for a target', async () => {
    const conversationId = `conv-${randomUUID()}`;
    await ended(await submit({ agentId: 'dash-chat', input: { message: 'first' }, conversationId }));
    await ended(await submit({ agentId: 'dash-chat', input: { message: 'second' }, conversationId }));
    // A third version as a compaction, a tool round and a reasoning model would leave it.
    const store = new RedisConversationStore({ redis: redis.redis, prefix: redis.prefix });
    const latest = await store.load(conversationId);
    await store.append(conversationId, {
      expectedVersion: latest?.header.version ?? 0,
      appendId: randomUUID(),
      messages: [
        {
          role: 'user',
          content: 'Summary of the conversation so far: the user said first and second.',
          _compaction_summary: true,
        },
        {
          role: 'assistant',
          content: '',
          thinking: { thinking: 'The user wants the weather; call the tool.' },
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', name: 'weather', tool_call_id: 'call_1', content: '{"celsius":-3}' },
        {
          role: 'user',
          content: 'And this picture?',
          attachments: [{ mediaType: 'image/png', data: ONE_PIXEL_PNG, source: 'base64' }],
        },
      ],
    });
    const { page, errors } = await signedInPage();
    await go(page, `#/conversations/${conversationId}`);
    const messages = page.getByRole('region', { name: 'Messages' }).locator('article');
    await eventually(() => messages.count()).toBe(8);
    await page.locator('.compacted').first().waitFor();
    await page.getByRole('region', { name: 'Messages' }).getByText('Tool call weather').waitFor();
    await page.getByRole('img', { name: /Attached image image\/png/ }).waitFor();
    await expectAccessible(page, 'conversation');
    await screenshot(page, 'conversation');

    await page.getByLabel('Version', { exact: true }).selectOption('1');
    await eventually(() => messages.count()).toBe(2);
    await page.getByLabel('Compare with').selectOption('2');
    const diff = page.getByRole('region', { name: 'Diff' });
    await expect
      .poll(() => diff.getByRole('status').textContent())
      .toContain('From version 1 to 2: 2 added, 0 removed');
    await eventually(() => diff.locator('article.diff-added').count()).toBe(2);
    await eventually(() => diff.textContent()).toContain('second');
    await screenshot(page, 'conversation-diff');

    await page.getByLabel('Version', { exact: true }).selectOption('3');
    // Anthropic refuses thinking it did not sign: the target drops it and says so.
    await page.getByLabel('Target', { exact: true }).selectOption('anthropic');
    await page.getByRole('button', { name: 'Compile' }).click();
    const compiled = page.getByRole('region', { name: 'Compiled' });
    await compiled.getByText('Version 3 for anthropic').waitFor();
    await eventually(() => compiled.getByRole('list', { name: 'Compile warnings' }).textContent()).toContain(
      'thinking-unsigned-dropped',
    );
    await eventually(() => compiled.locator('pre').textContent()).toContain('"tool_use_id": "call_1"');
    await expectAccessible(page, 'compiled conversation');
    await screenshot(page, 'conversation-compiled');
    expect(errors).toEqual([]);
  });

  it('shows the fleet: the live worker, its agents, concurrency and queue depths', async () => {
    const { page, errors } = await signedInPage();
    await page.getByRole('link', { name: 'Fleet' }).click();
    const worker = page.locator('tr[data-worker-id]');
    await eventually(() => worker.count()).toBe(1);
    await eventually(() => worker.textContent()).toContain('dash-tree');
    await page.locator('tr[data-agent-id="dash-leaf"]', { hasText: 'yes (1)' }).waitFor();
    await expectAccessible(page, 'fleet');
    await screenshot(page, 'fleet');
    expect(errors).toEqual([]);
  });

  it('lists tool calls awaiting approval; approving runs the tool, rejecting sends the reason', async () => {
    const approved = await submit({ agentId: 'dash-approver', input: { amount: 25 } });
    const rejected = await submit({ agentId: 'dash-approver', input: { amount: 9000 } });
    const { page, errors } = await signedInPage();
    await page.getByRole('link', { name: 'Approvals' }).click();
    const itemOf = (runId: string) => page.locator(`li[data-run-id="${runId}"][data-call-id="call_1"]`);
    await itemOf(approved).waitFor();
    await itemOf(rejected).waitFor();
    await eventually(() => itemOf(rejected).getByLabel('Arguments of transfer').textContent()).toContain(
      '9000',
    );
    await expectAccessible(page, 'approvals');
    await screenshot(page, 'approvals');

    await itemOf(approved).getByRole('button', { name: 'Approve' }).click();
    await eventually(() => itemOf(approved).getByRole('status').textContent()).toContain('Approved');
    await itemOf(rejected)
      .getByLabel(/Reason/)
      .fill('over the limit');
    await itemOf(rejected).getByRole('button', { name: 'Reject' }).click();
    await eventually(() => itemOf(rejected).getByRole('status').textContent()).toContain('Rejected');

    const approvedEnd = await ended(approved);
    expect(approvedEnd).toMatchObject({ status: 'succeeded', output: 'tool said: transferred 25' });
    const rejectedEnd = (await ended(rejected)) as { status: string; output?: unknown };
    expect(rejectedEnd.status).toBe('succeeded');
    expect(String(rejectedEnd.output)).toContain('over the limit');
    expect(String(rejectedEnd.output)).not.toContain('transferred');
    // Once the runs went on, a fresh view lists neither.
    await page.getByRole('link', { name: 'Fleet' }).click();
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByText('No tool call awaits approval.').waitFor();
    expect(errors).toEqual([]);
  });

  it('shows a model answering markup and script as text: nothing executes', async () => {
    const conversationId = `xss-${randomUUID()}`;
    const runId = await submit({
      agentId: 'dash-xss',
      input: { message: '<img src=y onerror=alert(1)>' },
      conversationId,
    });
    expect((await ended(runId)).status).toBe('succeeded');
    const { page, errors } = await signedInPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await go(page, `#/runs/${runId}`);
    await eventually(() => page.getByRole('region', { name: 'Output' }).textContent()).toContain(XSS_ANSWER);
    await go(page, `#/conversations/${conversationId}`);
    const assistant = page.locator('article.role-assistant');
    await eventually(() => assistant.textContent()).toContain(XSS_ANSWER);
    await expect
      .poll(() => page.locator('article.role-user').textContent())
      .toContain('<img src=y onerror=alert(1)>');
    await page.getByRole('button', { name: 'Compile' }).click();
    const compiled = page.getByRole('region', { name: 'Compiled' });
    await compiled.getByText('Version 1 for openai').waitFor();
    await eventually(() => compiled.locator('pre').textContent()).toContain('onerror');

    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"], img[src="y"], b').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'xss-as-text');
    expect(errors).toEqual([]);
  });
});

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
