/**
 * A long conversation under a durable context budget, across real worker processes: 60 turns
 * of ~200 tokens through `budget-chat` (`maxPromptTokens: 2000`) on two workers, one SIGKILLed
 * in the middle of a run that had just compacted the conversation, then a third worker that
 * resumes from the compacted base. Every model request stays within budget, the summariser
 * runs a handful of times and never twice on the same input, and every version reads back.
 * The figures (request sizes, summaries, stored bytes with and without the budget) are
 * reported on stderr, never asserted.
 */
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient, type StoredConversation } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { BUDGET_TOKENS, budgetKeys, type RecordedRequest, turnMessage } from './fixtures/budget-agents.js';

const redis = useRedis(import.meta.filename);
const workerProgram = fileURLToPath(new URL('./fixtures/budget-worker.ts', import.meta.url));
const TURNS = 60;
const KILL_FROM_TURN = 25;
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(workerProgram, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  await Promise.all([workers.start(), workers.start()]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

const keys = () => budgetKeys(redis.prefix);

async function recordedRequests(): Promise<RecordedRequest[]> {
  return (await redis.redis.lrange(keys().requests, 0, -1)).map(
    (text) => JSON.parse(text) as RecordedRequest,
  );
}

/** Runs one turn; once the hang fired, kills the worker that hangs and lets the run finish elsewhere. */
async function runTurn(agentId: string, conversationId: string, turn: number): Promise<number | undefined> {
  const run = await client.submit(agentId, { message: turnMessage(turn) }, { conversationId });
  const settled = run.result().then(
    () => 'done' as const,
    (error: unknown) => error,
  );
  const hung = await waitUntil(
    async () => {
      const pid = await redis.redis.get(keys().hungProcess);
      if (pid !== null) return Number(pid);
      return (await Promise.race([settled, Promise.resolve('pending')])) === 'pending' ? undefined : 0;
    },
    { what: `turn ${turn} to end or hang` },
  );
  if (hung > 0) {
    await redis.redis.del(keys().hungProcess);
    await workers.kill(hung);
  }
  expect(await settled, `turn ${turn}`).toBe('done');
  return hung > 0 ? hung : undefined;
}

/** Bytes of the conversation's stored message and version entries. */
async function storedBytes(conversationId: string): Promise<number> {
  const base = `${redis.prefix}:conv:{c:${conversationId}}`;
  let bytes = 0;
  for (const suffix of [':messages', ':versions']) {
    for (const entry of await redis.redis.lrange(`${base}${suffix}`, 0, -1))
      bytes += Buffer.byteLength(entry);
  }
  return bytes;
}

function report(name: string, value: unknown): void {
  process.stderr.write(`[figure] ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}

describe('a 60-turn conversation under maxPromptTokens 2000 across worker processes', () => {
  const conversationId = 'budget-60';
  const versions: StoredConversation[] = [];

  it('keeps every request within budget through a crash, summarising a handful of times, never twice', async () => {
    let killed: number | undefined;
    for (let turn = 1; turn <= TURNS; turn++) {
      if (turn === KILL_FROM_TURN) await redis.redis.set(keys().hangArmed, '1');
      const hung = await runTurn('budget-chat', conversationId, turn);
      killed ??= hung;
    }
    expect(killed, 'a worker was killed mid-run').toBeDefined();

    const requests = await recordedRequests();
    for (const request of requests) expect(request.tokens).toBeLessThanOrEqual(BUDGET_TOKENS);
    const summaries = requests.filter((request) => request.kind === 'summary');
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(summaries.length).toBeLessThanOrEqual(15);
    expect(new Set(summaries.map((request) => request.input)).size).toBe(summaries.length);

    const latest = await client.getConversation(conversationId);
    for (let version = 1; version <= (latest?.header.version ?? 0); version++) {
      const stored = await client.getConversation(conversationId, { version });
      expect(stored?.messages).toHaveLength(stored?.header.messageCount ?? -1);
      versions.push(stored as StoredConversation);
    }
    const bases = versions.filter((stored) => stored.header.base?.version === stored.header.version);
    // One base per summary: the run taken over after the kill replayed its summary and base.
    expect(bases).toHaveLength(summaries.length);
    for (const stored of bases) {
      expect(stored.header.base).toMatchObject({ reason: 'compaction', summarizer: { id: 'budget-model' } });
      expect(stored.header.base?.compactedFrom).toBe(stored.header.version - 1);
      expect(stored.messages[0]?.content).toContain('<conversation_summary>');
    }
    // Between bases, each version is the one before plus one whole turn.
    for (const stored of versions.slice(1)) {
      if (stored.header.base?.version === stored.header.version) continue;
      const previous = versions[stored.header.version - 2] as StoredConversation;
      expect(stored.messages.slice(0, previous.messages.length)).toEqual(previous.messages);
    }
    const user = latest?.messages.filter((message) => message.role === 'user').at(-1);
    expect(user?.content).toBe(turnMessage(TURNS));

    const chat = requests.filter((request) => request.kind === 'chat').map((request) => request.tokens);
    report('chat request tokens (budget 2000)', {
      max: Math.max(...chat),
      mean: Math.round(chat.reduce((sum, tokens) => sum + tokens, 0) / chat.length),
      requests: chat.length,
    });
    report('summaries in 60 turns', summaries.length);
    report(
      'summary request tokens',
      summaries.map((request) => request.tokens),
    );
  });

  it('lets a third worker resume from the compacted base', async () => {
    await workers.stop();
    const third = await workers.start();
    const before = await client.getConversation(conversationId);
    await runTurn('budget-chat', conversationId, TURNS + 1);
    const requests = await recordedRequests();
    const resumed = requests.filter((request) => request.pid === third.pid && request.kind === 'chat');
    expect(resumed).toHaveLength(1);
    // system + the stored history (a base and the turns after it) + the new user message.
    expect(resumed[0]).toMatchObject({
      startsWithSummary: true,
      messages: (before?.messages.length ?? 0) + 2,
    });
    expect(before?.header.base).toBeDefined();
  });

  it('reports the stored bytes with and without the budget', async () => {
    for (let turn = 1; turn <= TURNS; turn++) await runTurn('plain-chat', 'plain-60', turn);
    const plain = await client.getConversation('plain-60');
    report('stored bytes, 60 turns', {
      withBudget: await storedBytes(conversationId),
      withoutBudget: await storedBytes('plain-60'),
      latestMessagesWithBudget: (await client.getConversation(conversationId))?.messages.length,
      latestMessagesWithoutBudget: plain?.messages.length,
      // What a resume reads: the latest version's messages as JSON.
      latestBytesWithBudget: JSON.stringify((await client.getConversation(conversationId))?.messages).length,
      latestBytesWithoutBudget: JSON.stringify(plain?.messages).length,
    });
    expect(plain?.messages).toHaveLength(TURNS * 2);
  });
});
