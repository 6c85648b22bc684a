/**
 * The chat example of docs/conversations.md, the three ways it shows: the client library
 * (`node examples/dist/chat.js`), the scheduler's HTTP API (`POST /runs` with `conversationId`)
 * and the `flotilla` CLI (`submit --conversation`), each against a real worker app process
 * serving `examples/dist/chat-fleet.js`. The second message is answered from the history the
 * first run stored, so a conversation that did not resume shows in the reply.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { call, waitForRun } from './support/http.js';
import { API_TOKEN, useScheduler } from './support/use-scheduler.js';
import { useWorkerProcess } from './support/use-worker-process.js';
import { REPO_ROOT } from './support/worker-process.js';

const run = promisify(execFile);
const redis = useRedis(import.meta.filename);
useWorkerProcess(redis, { FLOTILLA_AGENTS: './examples/dist/chat-fleet.js' });
const scheduler = useScheduler(redis);

/** Runs a built program of the repository with this file's Redis, prefix and scheduler. */
async function node(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, args, {
    cwd: REPO_ROOT,
    timeout: 45_000,
    env: {
      ...process.env,
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_API_URL: scheduler.url,
      FLOTILLA_API_TOKEN: API_TOKEN,
    },
  });
  return stdout;
}

interface StoredMessages {
  messages: { role: string; content: string }[];
}

describe('the chat example', () => {
  it('resumes the conversation through the client library (examples/dist/chat.js)', async () => {
    const conversationId = `lib-${randomUUID()}`;
    const stdout = await node(['examples/dist/chat.js', conversationId]);
    expect(stdout.trim().split('\n')).toEqual([
      '> Hi, my name is Ada.',
      'Nice to meet you, Ada.',
      '> What is my name?',
      'Your name is Ada.',
      `conversation ${conversationId}: 4 messages, version 2`,
    ]);
  });

  it('resumes the conversation through the HTTP API (POST /runs with conversationId)', async () => {
    const conversationId = `http-${randomUUID()}`;
    const outputs: unknown[] = [];
    for (const message of ['Hi, my name is Grace.', 'What is my name?']) {
      const answer = await call<{ runId: string }>(scheduler.url, 'POST', '/runs', {
        body: { agentId: 'assistant', input: { message }, conversationId },
      });
      expect(answer.status).toBe(202);
      const record = await waitForRun(
        scheduler.url,
        answer.body.runId,
        (run) => run.status !== 'queued' && run.status !== 'running',
      );
      expect(record.status).toBe('succeeded');
      outputs.push(record.output);
    }
    expect(outputs).toEqual(['Nice to meet you, Grace.', 'Your name is Grace.']);
    const stored = await call<StoredMessages>(scheduler.url, 'GET', `/conversations/${conversationId}`);
    expect(stored.body.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('resumes the conversation through the flotilla CLI (submit --conversation --wait)', async () => {
    const conversationId = `cli-${randomUUID()}`;
    const cli = 'apps/scheduler/bin/flotilla.js';
    const first = await node([
      cli,
      'submit',
      'assistant',
      '{"message":"Hi, my name is Alan."}',
      '--conversation',
      conversationId,
      '--wait',
    ]);
    const second = await node([
      cli,
      'submit',
      'assistant',
      '{"message":"What is my name?"}',
      '--conversation',
      conversationId,
      '--wait',
    ]);
    expect(JSON.parse(first)).toMatchObject({ status: 'succeeded', output: 'Nice to meet you, Alan.' });
    expect(JSON.parse(second)).toMatchObject({ status: 'succeeded', output: 'Your name is Alan.' });
    const stored = JSON.parse(await node([cli, 'conversation', conversationId])) as StoredMessages;
    expect(stored.messages.map((message) => message.content)).toEqual([
      'Hi, my name is Alan.',
      'Nice to meet you, Alan.',
      'What is my name?',
      'Your name is Alan.',
    ]);
  });
});
