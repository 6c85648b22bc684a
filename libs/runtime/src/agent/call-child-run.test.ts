import { getEventListeners } from 'node:events';
import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChildCall, ChildResolution, ChildRunner } from '../context/child-runner.js';
import { currentAgentContext } from '../context/context-store.js';
import type { JournalEntry, RecordOptions } from '../context/run-services.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { NonDeterminismError } from '../errors/run-errors.js';
import { equipTool } from '../hooks/equip-tool.js';
import { promptChat } from '../policy/prompt-chat.js';
import { createMockModel } from '../testing/index.js';
import { defineTool } from '../tools/tool-definition.js';
import { createAgent } from './create-agent.js';
import { executeRun } from './execute-run.js';

/** A child runner driven by the test: it records what it is asked and answers from `states`. */
class ScriptedChildRunner implements ChildRunner {
  readonly maxChildrenPerRun = 1000;
  readonly asked: ChildCall[] = [];
  readonly states = new Map<string, ChildResolution>();

  async resolve(call: ChildCall): Promise<ChildResolution> {
    this.asked.push(call);
    return (
      this.states.get(`${call.position}#${call.attempt}`) ?? {
        state: 'pending',
        childRunId: `c-${call.position}`,
        enqueued: true,
      }
    );
  }
}

const Child = createAgent({ id: 'child', handler: async ({ n }: { n: number }) => n * 2 });
const FanOut = createAgent({
  id: 'fan',
  handler: async () => Promise.all([1, 2, 3].map((n) => Child({ n }))),
});
const position = (n: number) => `root/agent:fan:0/g0/agent:child:${n}`;
const usage = { promptTokens: 5, completionTokens: 1, totalTokens: 6 };

/** One execution of `agent` over `journal`, its child calls answered by `children`. */
function executeFanOut(agent: typeof FanOut, children: ScriptedChildRunner, journal: InMemoryRunJournal) {
  return executeRun({ agent, input: {}, services: { ...createEmbeddedServices({ journal }), children } });
}

function finished(n: number, value: unknown): ChildResolution {
  return { state: 'finished', childRunId: `c${n}`, outcome: { ok: true, value }, usage, modelCalls: 1 };
}

describe('child calls with a child runner (worker mode)', () => {
  it('enqueues every call of a Promise.all fan-out, then suspends on all of them', async () => {
    const children = new ScriptedChildRunner();
    const services = { ...createEmbeddedServices(), children };
    const outcome = await executeRun({ agent: FanOut, input: {}, services });
    expect(children.asked.map((call) => call.position)).toEqual([position(0), position(1), position(2)]);
    expect(outcome.suspended?.pendingChildren).toEqual(
      [position(0), position(1), position(2)].map((p) => `c-${p}`),
    );
    const types = services.events.events.map((event) => event.type);
    expect(types.filter((type) => type === 'child-start')).toHaveLength(3);
    expect(types.at(-1)).toBe('run-suspended');
  });

  it('adds one abort listener to the calling agent for a fan-out of 20 pending children', async () => {
    const signals: AbortSignal[] = [];
    const Wide = createAgent({
      id: 'wide',
      handler: async () => {
        const signal = currentAgentContext()?.signal;
        if (signal) signals.push(signal);
        return Promise.all(Array.from({ length: 20 }, (_, n) => Child({ n })));
      },
    });
    const children = new ScriptedChildRunner();
    const outcome = await executeRun({
      agent: Wide,
      input: {},
      services: { ...createEmbeddedServices(), children },
    });
    expect(outcome.suspended?.pendingChildren).toHaveLength(20);
    expect(signals).toHaveLength(1);
    expect(getEventListeners(signals[0] as AbortSignal, 'abort').length).toBeLessThanOrEqual(1);
  });

  it('records finished children on replay, rolls their usage up, and returns their outputs', async () => {
    const children = new ScriptedChildRunner();
    for (const n of [0, 1, 2]) children.states.set(`${position(n)}#0`, finished(n, (n + 1) * 2));
    const journal = new InMemoryRunJournal();
    const outcome = await executeRun({
      agent: FanOut,
      input: {},
      services: { ...createEmbeddedServices({ journal }), children },
    });
    expect(outcome).toMatchObject({ output: [2, 4, 6], modelCalls: 3, usage: { totalTokens: 18 } });
    expect(journal.snapshot().get(position(1))).toMatchObject({
      kind: 'child',
      outcome: { ok: true, value: 4 },
    });

    children.asked.length = 0;
    const replay = await executeRun({
      agent: FanOut,
      input: {},
      services: {
        ...createEmbeddedServices({ journal: new InMemoryRunJournal(journal.snapshot()) }),
        children,
      },
    });
    expect(replay.output).toEqual([2, 4, 6]);
    expect(children.asked).toEqual([]); // recorded positions never reach the runner
    expect(replay.usage).toEqual(emptyUsage());
  });

  it('journals no usage for a child that spent nothing, and rolls the usage of one that did up on replay', async () => {
    const children = new ScriptedChildRunner();
    children.states.set(`${position(0)}#0`, finished(0, 2));
    for (const n of [1, 2])
      children.states.set(`${position(n)}#0`, {
        state: 'finished',
        childRunId: `c${n}`,
        outcome: { ok: true, value: (n + 1) * 2 },
        usage: emptyUsage(),
        modelCalls: 0,
      });
    const journal = new InMemoryRunJournal();
    const first = await executeFanOut(FanOut, children, journal);
    expect(first).toMatchObject({ output: [2, 4, 6], modelCalls: 1, usage: { totalTokens: 6 } });
    const entries = journal.snapshot();
    expect(entries.get(position(0))?.usage).toMatchObject({ totalTokens: 6, callCount: 1 });
    expect(entries.get(position(1))).not.toHaveProperty('usage');
    expect(entries.get(position(2))).not.toHaveProperty('usage');
    let aggregate: unknown;
    const Reading = createAgent({
      id: 'fan',
      handler: async () => {
        const values = await Promise.all([1, 2, 3].map((n) => Child({ n })));
        aggregate = currentAgentContext()?.usage.aggregate;
        return values;
      },
    });
    const replay = await executeFanOut(Reading, children, new InMemoryRunJournal(entries));
    expect(replay.output).toEqual([2, 4, 6]);
    expect(aggregate).toMatchObject({ totalTokens: 6, callCount: 1 });
  });

  it("records an outcome read from an ended child with the run's next write, unless the child left stats to drop", async () => {
    /** A journal that says how each entry was recorded. */
    class TellingJournal extends InMemoryRunJournal {
      readonly deferred = new Map<string, boolean>();
      override record(position: string, entry: JournalEntry, options?: RecordOptions): Promise<void> {
        this.deferred.set(position, options?.deferred === true);
        return super.record(position, entry);
      }
    }
    const children = new ScriptedChildRunner();
    for (const n of [0, 1, 2]) children.states.set(`${position(n)}#0`, finished(n, (n + 1) * 2));
    const stats = {
      costs: {},
      promptTokens: 5,
      completionTokens: 1,
      totalTokens: 6,
      callCount: 1,
      items: [],
    };
    children.states.set(`${position(2)}#0`, {
      state: 'finished',
      childRunId: 'c2',
      outcome: { ok: true, value: 6 },
      usage,
      modelCalls: 1,
      stats,
    });
    const journal = new TellingJournal();
    const services = { ...createEmbeddedServices({ journal }), children };
    expect((await executeRun({ agent: FanOut, input: {}, services })).output).toEqual([2, 4, 6]);
    expect(Object.fromEntries(journal.deferred)).toEqual({
      [position(0)]: true,
      [position(1)]: true,
      [position(2)]: false,
    });
    // Lost in a crash before that write: the next execution reads the same outcomes again.
    children.asked.length = 0;
    const again = await executeRun({
      agent: FanOut,
      input: {},
      services: { ...createEmbeddedServices({ journal: new InMemoryRunJournal() }), children },
    });
    expect(again.output).toEqual([2, 4, 6]);
    expect(children.asked.map((call) => call.position)).toEqual([position(0), position(1), position(2)]);
  });

  it("throws a finished child's failure at the await, rebuilt by name", async () => {
    const children = new ScriptedChildRunner();
    children.states.set(`root/agent:one:0/g0/agent:child:0#0`, {
      state: 'finished',
      childRunId: 'c0',
      outcome: { ok: false, error: { name: 'QuotaExceededError', message: 'quota', data: { limit: 3 } } },
      usage: emptyUsage(),
      modelCalls: 0,
    });
    const One = createAgent({
      id: 'one',
      handler: async () => Child({ n: 1 }).catch((error: Error) => `${error.name}: ${error.message}`),
    });
    const outcome = await executeRun({
      agent: One,
      input: {},
      services: { ...createEmbeddedServices(), children },
    });
    expect(outcome.output).toBe('QuotaExceededError: quota');
  });

  it('starts a new child run attempt after a transient failure and records the attempt', async () => {
    const children = new ScriptedChildRunner();
    const at = 'root/agent:one:0/g0/agent:child:0';
    children.states.set(`${at}#0`, {
      state: 'retry',
      childRunId: 'c0',
      error: { name: 'ResourceOwnerGoneError', message: 'gone' },
    });
    children.states.set(`${at}#1`, finished(0, 42));
    const One = createAgent({ id: 'one', handler: async () => Child({ n: 21 }) });
    const journal = new InMemoryRunJournal();
    const outcome = await executeRun({
      agent: One,
      input: {},
      services: { ...createEmbeddedServices({ journal }), children },
    });
    expect(outcome.output).toBe(42);
    expect(children.asked.map((call) => call.attempt)).toEqual([0, 1]);
    expect(journal.snapshot().get(`${at}/attempt:1`)).toMatchObject({
      outcome: { value: { failedRunId: 'c0' } },
    });
  });

  it('suspends when a tool handler awaits a child (the tool waits on it too)', async () => {
    const children = new ScriptedChildRunner();
    const delegate = defineTool({
      name: 'delegate',
      description: 'asks a child',
      parameters: z.object({}),
      handler: async () => Child({ n: 1 }),
    });
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 't1', name: 'delegate', arguments: {} }] },
      'done',
    ]);
    const Delegator = createAgent({
      id: 'delegator',
      model: mock,
      handler: async () => {
        equipTool(delegate);
        return (await promptChat({ message: 'go' })).data;
      },
    });
    const outcome = await executeRun({
      agent: Delegator,
      input: {},
      services: { ...createEmbeddedServices(), children },
    });
    expect(outcome.suspended?.pendingChildren).toHaveLength(1);
  });

  it('fails with NonDeterminismError when a recorded child position is asked for other props', async () => {
    const recorded: JournalEntry = {
      kind: 'child',
      fingerprint: 'agent:child:0000000000000000',
      outcome: { ok: true, value: 2 },
      at: 1,
    };
    const One = createAgent({ id: 'one', handler: async () => Child({ n: 1 }) });
    const journal = new InMemoryRunJournal([['root/agent:one:0/g0/agent:child:0', recorded]]);
    const run = executeRun({
      agent: One,
      input: {},
      services: { ...createEmbeddedServices({ journal }), children: new ScriptedChildRunner() },
    });
    await expect(run).rejects.toSatisfy(NonDeterminismError.is);
    await expect(run).rejects.toMatchObject({ position: 'root/agent:one:0/g0/agent:child:0' });
  });
});
