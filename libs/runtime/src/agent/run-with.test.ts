import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunWithNestedError } from '../errors/agent-errors.js';
import { AbortError } from '../errors/run-errors.js';
import { expectResource } from '../hooks/expect-resource.js';
import { expectScope } from '../hooks/expect-scope.js';
import { promptAgent } from '../policy/prompt-agent.js';
import { createMockModel } from '../testing/index.js';
import { createAgent } from './create-agent.js';
import { getAbortHandle, getContextSignal, runWith } from './run-with.js';

const Answer = z.object({ answer: z.string() });

describe('runWith', () => {
  it('runs agents with the root model, providers and scope', async () => {
    const mock = createMockModel().setDefaultResponse({ answer: 'hi' });
    const db = { query: () => 'row' };
    const seen: unknown[] = [];
    const Child = createAgent({
      id: 'child',
      handler: async () => {
        seen.push(
          expectResource<typeof db>('db').query(),
          expectScope(z.object({ tenant: z.string() })).tenant,
        );
        return promptAgent(Answer);
      },
    });
    const result = await runWith(async () => Child(), {
      model: mock,
      providers: { db },
      scope: { tenant: 'acme' },
    });
    expect(result).toEqual({ answer: 'hi' });
    expect(seen).toEqual(['row', 'acme']);
    expect(mock.calls.count).toBe(1);
  });

  it('resolves model ids from modelRegistry', async () => {
    const Named = createAgent({ id: 'named', model: 'fast', handler: () => promptAgent(Answer) });
    const fast = createMockModel().setDefaultResponse({ answer: 'fast one' });
    await expect(runWith(() => Named(), { modelRegistry: { fast } })).resolves.toEqual({
      answer: 'fast one',
    });
  });

  it('cancels the tree when its signal aborts', async () => {
    const controller = new AbortController();
    const slow = createMockModel();
    slow
      .when(() => true)
      .thenReturn({ answer: 'late' })
      .withDelay(60_000);
    const Slow = createAgent({ id: 'slow', model: slow, handler: () => promptAgent(Answer) });
    const running = runWith(() => Slow(), { signal: controller.signal });
    await expect.poll(() => slow.calls.count).toBe(1);
    controller.abort('stop');
    const error = await running.catch((caught: unknown) => caught);
    expect(AbortError.is(error)).toBe(true);
  });

  it('refuses to run inside an agent', async () => {
    const Outer = createAgent({ id: 'outer', handler: () => runWith(() => 1) });
    const error = await Outer().catch((caught: unknown) => caught);
    expect(RunWithNestedError.is(error)).toBe(true);
  });
});

describe('getContextSignal and getAbortHandle', () => {
  it('give the current agent’s signal, and a handle that cancels it from outside its async context', async () => {
    expect(getContextSignal()).toBeUndefined();
    const slow = createMockModel();
    slow
      .when(() => true)
      .thenReturn({ answer: 'late' })
      .withDelay(60_000);
    let signal: AbortSignal | undefined;
    let abort: ((reason?: string) => void) | undefined;
    const Agent = createAgent({
      id: 'abortable',
      model: slow,
      handler: async () => {
        signal = getContextSignal();
        abort = getAbortHandle();
        return promptAgent(Answer);
      },
    });
    const running = Agent();
    await expect.poll(() => slow.calls.count).toBe(1);
    expect(signal?.aborted).toBe(false);
    abort?.('user pressed stop');
    const error = await running.catch((caught: unknown) => caught);
    expect(AbortError.is(error)).toBe(true);
    expect(signal?.aborted).toBe(true);
  });
});
