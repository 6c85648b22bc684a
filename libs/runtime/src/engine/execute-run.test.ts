import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { reborn } from '../context/reborn.js';
import type { JournalEntry } from '../context/run-services.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { NonDeterminismError } from '../errors/run-errors.js';
import { createMockModel } from '../testing/index.js';
import { InMemoryTreeUsage } from '../usage/tree-usage.js';
import { AdderAgent, toolRuns } from './__fixtures__/adder-agent.js';

function scriptedModel() {
  const mock = createMockModel();
  mock.sequence([
    {
      toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }],
      usage: { promptTokens: 10, completionTokens: 2 },
    },
    { json: { sum: 5 }, usage: { promptTokens: 12, completionTokens: 3 } },
  ]);
  return mock;
}

function recordedJournal(): [string, JournalEntry][] {
  const url = new URL('./__fixtures__/adder-journal.json', import.meta.url);
  return Object.entries(JSON.parse(readFileSync(url, 'utf8')) as Record<string, JournalEntry>);
}

beforeEach(() => {
  toolRuns.length = 0;
});

describe('executeRun', () => {
  it('runs the agent, its tools and model turns, and sums usage into the outcome', async () => {
    const mock = scriptedModel();
    const services = createEmbeddedServices({ models: { mock } });
    const outcome = await executeRun({ agent: AdderAgent, input: { a: 2, b: 3 }, services });
    expect(outcome.output).toEqual({ sum: 5 });
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.usage).toMatchObject({ promptTokens: 22, completionTokens: 5, totalTokens: 27 });
    expect(toolRuns).toEqual([{ a: 2, b: 3 }]);
    const types = services.events.events.map((event) => event.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('run-end');
    expect(types).toContain('tool-result');
  });

  it('journals every model turn and tool execution at deterministic positions', async () => {
    const journal = new InMemoryRunJournal();
    const services = createEmbeddedServices({ models: { mock: scriptedModel() }, journal });
    await executeRun({ agent: AdderAgent, input: { a: 2, b: 3 }, services });
    const positions = [...journal.snapshot().keys()];
    expect(positions).toEqual([
      'root/agent:adder:0/g0/model:0',
      'root/agent:adder:0/g0/tool:call_1:0',
      'root/agent:adder:0/g0/model:1',
    ]);
  });

  describe('when the journal already holds the run (replay after a crash)', () => {
    it('answers from the journal without calling the model or the tools again', async () => {
      const mock = createMockModel();
      const services = createEmbeddedServices({
        models: { mock },
        journal: new InMemoryRunJournal(recordedJournal()),
      });
      const outcome = await executeRun({ agent: AdderAgent, input: { a: 2, b: 3 }, services });
      expect(outcome.output).toEqual({ sum: 5 });
      expect(mock.calls.count).toBe(0);
      expect(toolRuns).toEqual([]);
      expect(outcome.modelCalls).toBe(0);
      const turnEnds = services.events.events.filter((event) => event.type === 'model-turn-end');
      expect(turnEnds.map((event) => event.replayed)).toEqual([true, true]);
    });

    it('continues live after the last recorded step', async () => {
      const partial = recordedJournal().slice(0, 2); // the tool-call turn and the tool result
      const mock = createMockModel().setDefaultResponse({ sum: 5 });
      const services = createEmbeddedServices({ models: { mock }, journal: new InMemoryRunJournal(partial) });
      const outcome = await executeRun({ agent: AdderAgent, input: { a: 2, b: 3 }, services });
      expect(outcome.output).toEqual({ sum: 5 });
      expect(mock.calls.count).toBe(1);
      expect(toolRuns).toEqual([]);
      // The live turn sees the replayed tool result in its history.
      expect(mock.calls.first?.messages.at(-1)).toMatchObject({
        role: 'tool',
        tool_call_id: 'call_1',
        content: '5',
      });
    });

    it('fails with NonDeterminismError naming the position when the journal recorded something else', async () => {
      const altered = recordedJournal().map(([position, entry]): [string, JournalEntry] =>
        position.endsWith('/tool:call_1:0')
          ? [position, { ...entry, fingerprint: 'tool:subtract:0000' }]
          : [position, entry],
      );
      const services = createEmbeddedServices({
        models: { mock: createMockModel() },
        journal: new InMemoryRunJournal(altered),
      });
      const run = executeRun({ agent: AdderAgent, input: { a: 2, b: 3 }, services });
      await expect(run).rejects.toSatisfy(NonDeterminismError.is);
      await expect(run).rejects.toMatchObject({
        position: 'root/agent:adder:0/g0/tool:call_1:0',
        recorded: 'tool tool:subtract:0000',
      });
      const end = services.events.events.at(-1);
      expect(end).toMatchObject({
        type: 'run-end',
        status: 'failed',
        error: { name: 'NonDeterminismError' },
      });
    });
  });

  describe('when the run had reborn before the crash', () => {
    it('resumes at the last recorded generation with the props that reborn recorded', async () => {
      const generationsRun: number[] = [];
      const Agent = createAgent({
        id: 'stepper',
        handler: async ({ step }: { step: number }) => {
          generationsRun.push(step);
          return step < 2 ? reborn({ step: step + 1 }) : `finished at ${step}`;
        },
      });
      const journal = new InMemoryRunJournal();
      await executeRun({ agent: Agent, input: { step: 0 }, services: createEmbeddedServices({ journal }) });
      expect([...journal.snapshot().keys()]).toEqual([
        'root/agent:stepper:0/g0/reborn',
        'root/agent:stepper:0/g1/reborn',
      ]);
      generationsRun.length = 0;
      const replay = await executeRun({
        agent: Agent,
        input: { step: 0 },
        services: createEmbeddedServices({ journal: new InMemoryRunJournal(journal.snapshot()) }),
      });
      expect(replay.output).toBe('finished at 2');
      expect(generationsRun).toEqual([2]);
    });
  });
});

describe('a child run that ended', () => {
  const placement = { callPath: 'root/agent:p:0/g0/agent:c:0', depth: 1, parentRunId: 'p', rootRunId: 'p' };
  const Leaf = createAgent({ id: 'leaf', handler: async () => 'leaf' });

  it('stores its usage stats in the tree for its parent when it called a model', async () => {
    const treeUsage = new InMemoryTreeUsage('p');
    const services = {
      ...createEmbeddedServices({ models: { mock: scriptedModel() } }),
      placement,
      treeUsage,
    };
    await executeRun({ agent: AdderAgent, input: { a: 2, b: 3 }, services });
    expect(await treeUsage.runStats(services.runId)).toMatchObject({ callCount: 2, totalTokens: 27 });
  });

  it('stores none when its parent rebuilds the same stats from the record (no model called)', async () => {
    const treeUsage = new InMemoryTreeUsage('p');
    const services = { ...createEmbeddedServices(), placement, treeUsage };
    expect((await executeRun({ agent: Leaf, input: {}, services })).output).toBe('leaf');
    expect(await treeUsage.runStats(services.runId)).toBeUndefined();
  });
});
