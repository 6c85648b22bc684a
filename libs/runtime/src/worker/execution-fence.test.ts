import { describe, expect, it } from 'vitest';
import type { RunServices } from '../context/run-services.js';
import type { CollectingEventSink } from '../embedded/collecting-event-sink.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { AttemptSupersededError, ExecutionAbandonedError } from '../errors/run-errors.js';
import type { RunEvent } from '../events/run-event.js';
import { ExecutionFence, fenceWrites } from './execution-fence.js';
import { RunAttempt } from './run-attempt.js';

const entry = { kind: 'memo', fingerprint: 'memo:k', outcome: { ok: true, value: 1 }, at: 0 } as const;
const event = {
  type: 'run-start',
  runId: 'r-1',
  at: 0,
  callPath: 'root',
  agentId: 'a',
  input: {},
} as RunEvent;

/** `inner` with its writes fenced, as the worker builds an execution's services. */
function fenceServices(inner: RunServices, fence: ExecutionFence): RunServices {
  return { ...inner, ...fenceWrites(inner, fence) };
}

function fenced(): { fence: ExecutionFence; services: RunServices; events: CollectingEventSink } {
  const inner = createEmbeddedServices({ runId: 'r-1' });
  const fence = new ExecutionFence('r-1');
  return { fence, services: fenceServices(inner, fence), events: inner.events };
}

describe('fenceWrites', () => {
  it('passes every write through until the execution is abandoned', async () => {
    const { services, events } = fenced();
    await services.journal.record('p1', entry);
    await services.memory.set('root', 'k', 1);
    services.events.emit(event);
    expect((await services.journal.load()).has('p1')).toBe(true);
    expect(await services.memory.load('root')).toEqual({ k: 1 });
    expect(events.events).toHaveLength(1);
  });

  it('refuses journal, memory and conversation writes and drops events once abandoned', async () => {
    const { fence, services, events } = fenced();
    fence.abandon();
    await expect(services.journal.record('p1', entry)).rejects.toSatisfy(ExecutionAbandonedError.is);
    await expect(services.memory.set('root', 'k', 1)).rejects.toSatisfy(ExecutionAbandonedError.is);
    await expect(services.memory.clear('root')).rejects.toSatisfy(ExecutionAbandonedError.is);
    await expect(
      services.conversations.append('c-1', { expectedVersion: 0, appendId: 'a-1', messages: [] }),
    ).rejects.toSatisfy(ExecutionAbandonedError.is);
    services.events.emit(event);
    expect((await services.journal.load()).size).toBe(0);
    expect(await services.memory.load('root')).toEqual({});
    expect(events.events).toEqual([]);
  });

  it('supersedes the attempt at the first write a Lua fence refused, and refuses every later write without sending it', async () => {
    const inner = createEmbeddedServices({ runId: 'r-1' });
    const attempt = new RunAttempt('r-1');
    inner.journal.record = async () => {
      throw new AttemptSupersededError('r-1', 'a journal record');
    };
    let memoryWrites = 0;
    inner.memory.set = async () => {
      memoryWrites++;
    };
    const fence = new ExecutionFence('r-1', attempt);
    const services = fenceServices(inner, fence);
    await expect(services.journal.record('p1', entry)).rejects.toSatisfy(AttemptSupersededError.is);
    expect(attempt.superseded).toBe(true);
    expect(attempt.signal.aborted).toBe(true);
    await expect(services.memory.set('root', 'k', 1)).rejects.toSatisfy(AttemptSupersededError.is);
    expect(memoryWrites).toBe(0);
    services.events.emit(event);
    expect(inner.events.events).toEqual([]);
  });

  it('refuses to go on from a settle of the journal that was waiting when the attempt was superseded', async () => {
    const inner = createEmbeddedServices({ runId: 'r-1' });
    const attempt = new RunAttempt('r-1');
    let release: () => void = () => {};
    inner.journal.settle = () => new Promise<void>((resolve) => (release = resolve));
    const services = fenceServices(inner, new ExecutionFence('r-1', attempt));
    const settled = services.journal.settle?.();
    // Its lease lapsed while Redis did not answer; the deferred records then landed all the same.
    attempt.supersede(new AttemptSupersededError('r-1', 'further writes (its job lock lapsed)'));
    release();
    await expect(settled).rejects.toSatisfy(AttemptSupersededError.is);
  });
});
