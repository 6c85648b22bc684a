/**
 * When a run's attempt skips the conversation gate: only the first start of the job its client
 * added with the lease (`conversationLeased`), in its agent's own queue. Every other attempt
 * enters (which fences the first). The gate is a fake that records its calls.
 */
import type { Job } from 'bullmq';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationGate } from '../gate/conversation-gate.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { ConversationWriters, conversationOf } from './conversation-writers.js';

const logger = pino({ level: 'silent' });

function jobOf(overrides: { attemptsStarted?: number; queueName?: string; leased?: string } = {}): Job {
  const data: Record<string, unknown> = { input: '{}', conversationId: 'c1' };
  if (overrides.leased !== undefined) data.conversationLeased = overrides.leased;
  return {
    id: 'r1',
    name: 'agent',
    queueName: overrides.queueName ?? 'flotilla/agent',
    attemptsStarted: overrides.attemptsStarted ?? 1,
    data,
  } as unknown as Job;
}

function writers(queueName: string | null = 'flotilla') {
  const enter = vi.fn(async () => ({ entered: true as const }));
  const gate = { enter } as unknown as ConversationGate;
  const options = { gate, records: {} as RedisRunRecords, recheckMs: 1000 };
  return {
    enter,
    writers: new ConversationWriters(queueName === null ? options : { ...options, queueName }),
  };
}

async function admit(subject: ConversationWriters, job: Job) {
  const conversation = conversationOf(job);
  if (!conversation) throw new Error('no conversation');
  return subject.admit({ job, token: 't', attempt: 'a', logger }, conversation, async () => {});
}

describe('ConversationWriters.admit', () => {
  it('lets the first attempt of a job leased at submit in without entering: an empty read, or its own load', async () => {
    const { enter, writers: subject } = writers();
    expect(await admit(subject, jobOf({ leased: 'empty' }))).toEqual({
      read: { from: 0, fields: {}, list: [] },
    });
    expect(await admit(subject, jobOf({ leased: 'stored' }))).toEqual({ read: undefined });
    expect(enter).not.toHaveBeenCalled();
  });

  it('enters for every other attempt: a later start, a job in a build queue, no lease, or no queue name', async () => {
    const cases: [ReturnType<typeof writers>, Job][] = [
      [writers(), jobOf({ leased: 'empty', attemptsStarted: 2 })],
      [writers(), jobOf({ leased: 'empty', queueName: 'flotilla/agent/build-7' })],
      [writers(), jobOf()],
      [writers(), jobOf({ leased: 'elsewhere' })],
      [writers(null), jobOf({ leased: 'empty' })],
    ];
    for (const [{ enter, writers: subject }, job] of cases) {
      expect(await admit(subject, job)).toEqual({ read: undefined });
      expect(enter).toHaveBeenCalledWith('c1', 'r1', 'a', undefined);
    }
  });
});

describe('conversationOf', () => {
  it('reads the conversation of a root run with a valid id, and the lease its client gave it', () => {
    expect(conversationOf(jobOf({ leased: 'stored' }))).toEqual({
      conversationId: 'c1',
      onConflict: 'enqueue',
      leased: 'stored',
    });
    const invalid = { ...jobOf(), data: { conversationId: 'a b' } } as unknown as Job;
    expect(conversationOf(invalid)).toBeUndefined();
    const child = { ...jobOf(), data: { conversationId: 'c1', child: {} } } as unknown as Job;
    expect(conversationOf(child)).toBeUndefined();
  });

  it('answers alike every time it is asked, and reads data a job was given anew', () => {
    const job = jobOf();
    expect(conversationOf(job)).toEqual({ conversationId: 'c1', onConflict: 'enqueue' });
    expect(conversationOf(job)).toEqual(conversationOf(job));
    const invalid = { ...jobOf(), data: { conversationId: 'a b' } } as unknown as Job;
    expect(conversationOf(invalid)).toBeUndefined();
    expect(conversationOf(invalid)).toBeUndefined();
    // `job.updateData` replaces the data object: the new one is read.
    job.data = { ...job.data, conversationId: 'c2', onConflict: 'reject' };
    expect(conversationOf(job)).toEqual({ conversationId: 'c2', onConflict: 'reject' });
  });
});
