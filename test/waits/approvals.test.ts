/**
 * Tool approval with real worker processes: a run waiting for a person holds no slot, survives
 * its worker being SIGKILLed (answers sent while no worker is up), runs an approved tool exactly
 * once and a rejected one never, keeps parallel calls in call order, resumes a whole tree when a
 * child is approved, and keeps its conversation while it waits.
 */
import { fileURLToPath } from 'node:url';
import {
  createClient,
  type FlotillaClient,
  type RunRecord,
  type StreamedRunEvent,
} from '@flotilla/runtime/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { waitKeys } from './fixtures/wait-agents.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/wait-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(() => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterEach(async () => {
  await workers.stop();
});

afterAll(async () => {
  await client?.close();
});

/** The record once the run waits for `count` approvals. */
function approvalsAwaited(runId: string, count = 1): Promise<RunRecord> {
  return waitUntil(
    async () => {
      const record = await client.getRun(runId);
      const approvals = record?.waits?.filter((wait) => wait.waitingFor.kind === 'approval') ?? [];
      return record?.status === 'waiting' && approvals.length === count ? record : undefined;
    },
    { what: `run ${runId} waiting for ${count} approval(s)` },
  );
}

async function sends(runId: string, callId: string): Promise<number> {
  return Number((await redis.redis.hget(waitKeys(redis.prefix).counts, `${runId}:${callId}:send`)) ?? 0);
}

async function eventsOf(runId: string): Promise<StreamedRunEvent[]> {
  const events: StreamedRunEvent[] = [];
  for await (const event of client.run(runId).events()) events.push(event);
  return events;
}

describe('tool approval', () => {
  it('holds no slot while it waits: a concurrency-1 worker serves other runs meanwhile', async () => {
    await workers.start({ CONCURRENCY: '1' });
    const mail = await client.submit<string>('mailer', { to: 'ann' });
    const waiting = await approvalsAwaited(mail.id);
    expect(waiting.waitingFor).toMatchObject({ kind: 'approval' });
    expect(waiting.waits?.[0]?.info).toMatchObject({
      callId: 'call_1',
      tool: 'send_email',
      args: { text: 'ann' },
    });
    const quick = await client.submit('quick', { n: 1 });
    expect(await quick.result()).toEqual({ quick: { n: 1 } });
    expect((await client.getRun(mail.id))?.status).toBe('waiting');

    expect(await client.approve(mail.id, 'call_1', { approved: true })).toBe('answered');
    expect(await mail.result()).toBe('results: sent to ann');
    expect(await sends(mail.id, 'call_1')).toBe(1);
    const types = (await eventsOf(mail.id)).map((event) => event.type);
    expect(types.filter((type) => type === 'approval-requested')).toHaveLength(1);
    expect(types.filter((type) => type === 'approval-resolved')).toHaveLength(1);
  });

  it('survives a SIGKILLed worker: answers sent while no worker is up, approved runs once, rejected never', async () => {
    const worker = await workers.start();
    const approved = await client.submit<string>('mailer', { to: 'bob' });
    const rejected = await client.submit<string>('mailer', { to: 'eve' });
    await Promise.all([approvalsAwaited(approved.id), approvalsAwaited(rejected.id)]);
    await workers.kill(worker.pid ?? 0);

    await client.approve(approved.id, 'call_1', { approved: true, args: { text: 'bob@example.com' } });
    await client.approve(rejected.id, 'call_1', { approved: false, reason: 'not to eve' });
    await workers.start();
    expect(await approved.result()).toBe('results: sent to bob@example.com');
    const answer = await rejected.result();
    expect(answer).toContain('rejected');
    expect(answer).toContain('not to eve');
    expect(await sends(approved.id, 'call_1')).toBe(1);
    expect(await sends(rejected.id, 'call_1')).toBe(0);
    // The first answer stands.
    await expect(client.approve(approved.id, 'call_1', { approved: false })).rejects.toMatchObject({
      name: 'RunEndedError',
    });
  });

  it('answers 3 parallel calls independently, in reverse order, and the model gets the results in call order', async () => {
    await workers.start();
    const run = await client.submit<string>('mailer', { to: 'a, b, c' });
    const waiting = await approvalsAwaited(run.id, 3);
    expect(waiting.waits?.map((wait) => wait.info?.callId)).toEqual(['call_1', 'call_2', 'call_3']);
    await client.approve(run.id, 'call_3', { approved: true });
    await approvalsAwaited(run.id, 2);
    await client.approve(run.id, 'call_2', { approved: false, reason: 'no b' });
    await client.approve(run.id, 'call_1', { approved: true });
    const answer = await run.result();
    expect(answer).toMatch(/^results: sent to a \| .*rejected.*no b.* \| sent to c$/);
    expect(await Promise.all(['call_1', 'call_2', 'call_3'].map((id) => sends(run.id, id)))).toEqual([
      1, 0, 1,
    ]);
  });

  it('refuses an answer for a call the run did not ask about', async () => {
    await workers.start();
    const run = await client.submit<string>('mailer', { to: 'zed' });
    await approvalsAwaited(run.id);
    await expect(client.approve(run.id, 'call_9', { approved: true })).rejects.toMatchObject({
      name: 'UnknownApprovalError',
    });
    await expect(client.approve(run.id, 'call_1', { approved: 'yes' } as never)).rejects.toMatchObject({
      name: 'InvalidApprovalError',
    });
    await client.approve(run.id, 'call_1', { approved: true });
    await run.result();
  });

  it('approving a child waiting under its suspended parent resumes the whole tree', async () => {
    await workers.start();
    const parent = await client.submit<{ child: string }>('mailer-parent', { to: 'kim' });
    const childId = await waitUntil(
      async () => {
        const tree = await client.getRunTree(parent.id);
        const child = tree?.root.children[0];
        return tree?.root.status === 'waiting' && child?.status === 'waiting' ? child.runId : undefined;
      },
      { what: 'the parent suspended on its child that waits for approval' },
    );
    await approvalsAwaited(childId);
    await client.approve(childId, 'call_1', { approved: true });
    expect(await parent.result()).toEqual({ child: 'results: sent to kim' });
    expect(await sends(childId, 'call_1')).toBe(1);
  });

  it('keeps its conversation while it waits: the next run on it waits behind, and waitingFor says so', async () => {
    await workers.start({ CONCURRENCY: '2' });
    const first = await client.submit<string>('mailer', { to: 'lee' }, { conversationId: 'conv-approval' });
    const waiting = await approvalsAwaited(first.id);
    expect(waiting.waitingFor?.detail).toContain('keeps conversation conv-approval');
    const second = await client.submit('mailer', { to: 'max' }, { conversationId: 'conv-approval' });
    const queued = await waitUntil(
      async () => {
        const record = await client.getRun(second.id);
        return record?.waitingFor?.kind === 'conversation' ? record : undefined;
      },
      { what: 'the second run waiting for the conversation' },
    );
    expect(queued.status).toBe('queued');
    const listed = await client.listRuns({ status: 'waiting' });
    expect(listed.runs.map((record) => record.runId)).toContain(first.id);
    await client.approve(first.id, 'call_1', { approved: true });
    expect(await first.result()).toBe('results: sent to lee');
    await approvalsAwaited(second.id);
    await client.cancel(second.id);
  });
});
