import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import type { AnyAgent } from '../context/agent-definition.js';
import type { JournalEntry } from '../context/journal-entry.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { hashJson } from '../engine/fingerprint.js';
import { equipResource } from '../hooks/equip-resource.js';
import { equipSystem } from '../hooks/equip-system.js';
import { equipTool } from '../hooks/equip-tool.js';
import { patched } from '../hooks/patched.js';
import { callTool } from '../policy/call-tool.js';
import { promptChat } from '../policy/prompt-chat.js';
import { createMockModel } from '../testing/mock-model.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { waitForSignal } from '../waits/wait-for-signal.js';
import { InvalidRunExportError, ReplayResourceUsedError } from './replay-errors.js';
import { replayRun } from './replay-run.js';
import { parseRunExport, RUN_EXPORT_FORMAT, RUN_EXPORT_VERSION, type RunExport } from './run-export.js';

/** A tool that counts its executions (a replay must execute none). */
function countedTool(
  name: string,
  counter: { executions: number },
): ToolDefinition<z.ZodObject<{ n: z.ZodNumber }>> {
  return {
    name,
    description: `the ${name} tool`,
    parameters: z.object({ n: z.number() }),
    handler: async ({ n }) => {
      counter.executions += 1;
      return `${name}:${n}`;
    },
  };
}

/** Runs `agent` in memory and exports the run as a worker's client would. */
async function recordRun(agent: AnyAgent, input: unknown = {}): Promise<RunExport> {
  const journal = new InMemoryRunJournal();
  const services = createEmbeddedServices({ journal, runId: 'run-1' });
  const definitionId = (await import('../agent/create-agent.js')).agentDefinitionOf(agent).id;
  let status: RunExport['run']['status'] = 'succeeded';
  const run: Partial<RunExport['run']> = {};
  try {
    run.output = (await executeRun({ agent, input, services })).output;
  } catch (error) {
    status = 'failed';
    run.error = { name: (error as Error).name, message: (error as Error).message };
  }
  return exportOf(journal.snapshot(), { ...run, agentId: definitionId, status }, input);
}

function exportOf(
  entries: Map<string, JournalEntry>,
  run: Partial<RunExport['run']> & Pick<RunExport['run'], 'agentId' | 'status'>,
  input: unknown = {},
  children: RunExport['children'] = [],
): RunExport {
  return {
    format: RUN_EXPORT_FORMAT,
    version: RUN_EXPORT_VERSION,
    exportedAt: 1,
    run: { runId: 'run-1', createdAt: 1, ...run },
    input,
    journal: [...entries]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([position, entry]) => ({ position, entry })),
    children,
    memory: {},
  };
}

function model(id: string) {
  const mock = createMockModel({ id });
  mock.when(() => true).thenDo(() => 'answer');
  return mock;
}

const ROOT = 'root/agent:writer:0/g0';

describe('replayRun', () => {
  it('passes for unchanged code without executing a tool or calling the model', async () => {
    const counter = { executions: 0 };
    const tool = countedTool('lookup', counter);
    const chat = model('model-a');
    const writer = createAgent({
      id: 'writer',
      model: chat,
      handler: async ({ topic }: { topic: string }) => {
        equipSystem('You write briefs.');
        equipTool(tool);
        const found = await callTool(tool, { n: topic.length });
        const { data } = await promptChat({ message: `write about ${topic}` });
        return `${found} ${data}`;
      },
    });
    const exported = await recordRun(writer, { topic: 'tides' });
    const [executions, calls] = [counter.executions, chat.calls.count];
    const result = await replayRun(writer, exported);
    expect(result).toMatchObject({ ok: true, complete: true, output: 'lookup:5 answer', servedSteps: 2 });
    expect(result.divergence).toBeUndefined();
    expect([counter.executions, chat.calls.count]).toEqual([executions, calls]);
  });

  it('names the position of a reordered tool call and both fingerprints', async () => {
    const tool = countedTool('step', { executions: 0 });
    const make = (order: number[]) =>
      createAgent({
        id: 'writer',
        handler: async () => {
          for (const n of order) await callTool(tool, { n });
          return 'done';
        },
      });
    const exported = await recordRun(make([1, 2]));
    const result = await replayRun(make([2, 1]), exported);
    expect(result.ok).toBe(false);
    expect(result.divergence).toMatchObject({
      kind: 'changed',
      position: `${ROOT}/tool:callTool-step:0`,
      recorded: { kind: 'tool', fingerprint: `tool:step:${hashJson({ n: 1 })}` },
      current: { kind: 'tool', fingerprint: `tool:step:${hashJson({ n: 2 })}` },
    });
    expect(result.divergence?.message).toContain('patched(');
  });

  it('names the position of an added child call, made before calls the run recorded', async () => {
    const tool = countedTool('step', { executions: 0 });
    const helper = createAgent({ id: 'helper', handler: async () => 'helped' });
    const make = (withChild: boolean) =>
      createAgent({
        id: 'writer',
        handler: async () => {
          if (withChild) await helper();
          return callTool(tool, { n: 1 });
        },
      });
    const exported = await recordRun(make(false));
    const result = await replayRun(make(true), exported);
    expect(result.divergence).toMatchObject({
      kind: 'added',
      position: `${ROOT}/agent:helper:0`,
      current: { kind: 'child', fingerprint: expect.stringMatching(/^agent:helper:/) },
    });
    expect(result.divergence?.recorded).toBeUndefined();
  });

  it('names the position of an added call after the end of a run that ended', async () => {
    const tool = countedTool('step', { executions: 0 });
    const make = (calls: number) =>
      createAgent({
        id: 'writer',
        handler: async () => {
          for (let n = 0; n < calls; n++) await callTool(tool, { n });
          return 'done';
        },
      });
    const result = await replayRun(make(2), await recordRun(make(1)));
    expect(result.divergence).toMatchObject({ kind: 'added', position: `${ROOT}/tool:callTool-step:1` });
  });

  it('names the position of a removed model turn', async () => {
    const chat = model('model-a');
    const summarizer = createAgent({
      id: 'summarizer',
      model: chat,
      handler: async () => (await promptChat({ message: 'sum up' })).data,
    });
    const make = (plan: boolean) =>
      createAgent({
        id: 'writer',
        model: chat,
        handler: async () => {
          if (plan) await promptChat({ message: 'plan' });
          return summarizer();
        },
      });
    const result = await replayRun(make(false), await recordRun(make(true)));
    expect(result.divergence).toMatchObject({
      kind: 'removed',
      position: `${ROOT}/model:0`,
      recorded: { kind: 'model-turn', fingerprint: expect.stringMatching(/^model-turn\/v2:position=/) },
    });
    expect(result.divergence?.current).toBeUndefined();
  });

  it.each([
    ['model', { modelId: 'model-b' }],
    ['tools', { tools: ['lookup', 'search'] }],
    ['prompt', { system: 'You write long briefs.' }],
  ])('names the position of a model turn whose %s changed', async (part, change) => {
    const counter = { executions: 0 };
    const make = ({ modelId = 'model-a', tools = ['lookup'], system = 'You write briefs.' }) =>
      createAgent({
        id: 'writer',
        model: model(modelId),
        handler: async () => {
          equipSystem(system);
          for (const name of tools) equipTool(countedTool(name, counter));
          return (await promptChat({ message: 'go' })).data;
        },
      });
    const result = await replayRun(make(change), await recordRun(make({})));
    expect(result.divergence).toMatchObject({
      kind: 'changed',
      position: `${ROOT}/model:0`,
      changed: [part],
    });
    expect(result.divergence?.message).toContain(`(changed: ${part})`);
  });

  it('replays a journal recorded with first-format (v1) model turn fingerprints, which cover the position only', async () => {
    const make = (modelId: string) =>
      createAgent({
        id: 'writer',
        model: model(modelId),
        handler: async () => (await promptChat({ message: 'go' })).data,
      });
    const exported = await recordRun(make('model-a'));
    const v1 = parseRunExport(JSON.parse(JSON.stringify(exported)));
    for (const { entry } of v1.journal)
      if (entry.kind === 'model-turn')
        entry.fingerprint = `model-turn:${hashJson(['root/agent:writer:0', 0])}`;
    expect(await replayRun(make('model-a'), v1)).toMatchObject({
      ok: true,
      complete: true,
      output: 'answer',
    });
    // v1 knew nothing of the model: another model is no divergence there, but is in v2.
    expect((await replayRun(make('model-b'), v1)).ok).toBe(true);
    expect((await replayRun(make('model-b'), exported)).ok).toBe(false);
  });

  it('stops at the end of a run still in flight, reporting what it replayed as matching', async () => {
    const tool = countedTool('step', { executions: 0 });
    const agent = createAgent({
      id: 'writer',
      handler: async () => {
        await callTool(tool, { n: 1 });
        return callTool(tool, { n: 2 });
      },
    });
    const exported = await recordRun(agent);
    const inFlight = { ...exported, run: { ...exported.run, status: 'waiting' as const } };
    inFlight.journal = exported.journal.filter(({ position }) => position.endsWith(':0'));
    expect(await replayRun(agent, inFlight)).toMatchObject({ ok: true, complete: false, servedSteps: 1 });
  });

  it("serves a child call from the exported child run's outcome, checking its fingerprint", async () => {
    const helper = createAgent({ id: 'helper', handler: async ({ n }: { n: number }) => `helped ${n}` });
    const make = (n: number) => createAgent({ id: 'writer', handler: async () => helper({ n }) });
    const exported = await recordRun(make(1));
    // As a worker records it: the child is a run of its own, the parent's entry comes on its resume.
    const position = `${ROOT}/agent:helper:0`;
    const entry = exported.journal.find((item) => item.position === position)?.entry;
    const suspended: RunExport = {
      ...exported,
      run: { ...exported.run, status: 'waiting' },
      journal: exported.journal.filter((item) => !item.position.startsWith(position)),
      children: [
        {
          position,
          runId: 'run-1.c',
          agentId: 'helper',
          status: 'succeeded',
          output: 'helped 1',
          ...(entry && { fingerprint: entry.fingerprint }),
        },
      ],
    };
    expect(await replayRun(make(1), suspended)).toMatchObject({
      ok: true,
      complete: true,
      output: 'helped 1',
    });
    expect((await replayRun(make(2), suspended)).divergence).toMatchObject({ kind: 'changed', position });
  });

  it('reports a run that makes every recorded call but ends with another output', async () => {
    const tool = countedTool('step', { executions: 0 });
    const make = (suffix: string) =>
      createAgent({ id: 'writer', handler: async () => `${await callTool(tool, { n: 1 })}${suffix}` });
    const result = await replayRun(make('!'), await recordRun(make('')));
    expect(result.divergence).toMatchObject({ kind: 'result', position: 'root/agent:writer:0' });
  });

  it('passes a change guarded by patched() on a run recorded before it', async () => {
    const tool = countedTool('step', { executions: 0 });
    const old = createAgent({ id: 'writer', handler: async () => callTool(tool, { n: 1 }) });
    const guarded = createAgent({
      id: 'writer',
      handler: async () => callTool(tool, { n: patched('bigger-step') ? 2 : 1 }),
    });
    expect(await replayRun(guarded, await recordRun(old))).toMatchObject({ ok: true, complete: true });
  });

  it('answers patched() as a worker does for a run suspended on a child call (its pending steps)', async () => {
    const helper = createAgent({ id: 'helper', handler: async () => 'helped' });
    const other = createAgent({ id: 'other', handler: async () => 'other' });
    const tool = countedTool('step', { executions: 0 });
    const answers: boolean[] = [];
    const make = (withPatch: boolean) =>
      createAgent({
        id: 'writer',
        handler: async () => {
          await callTool(tool, { n: 1 });
          if (!withPatch) return helper();
          const answer = patched('call-other');
          answers.push(answer);
          return answer ? other() : helper();
        },
      });
    const exported = await recordRun(make(false));
    const position = `${ROOT}/agent:helper:0`;
    const fingerprint = exported.journal.find((item) => item.position === position)?.entry.fingerprint;
    // As a worker exports it while the child runs: no entry for the call, the child run waiting.
    const suspended: RunExport = {
      ...exported,
      run: { ...exported.run, status: 'waiting' },
      journal: exported.journal.filter((item) => item.position !== position),
      pendingSteps: [position],
      children: [
        {
          position,
          runId: 'run-1.c',
          agentId: 'helper',
          status: 'waiting',
          ...(fingerprint && { fingerprint }),
        },
      ],
    };
    expect(await replayRun(make(true), parseRunExport(suspended))).toMatchObject({
      ok: true,
      complete: false,
    });
    expect(answers).toEqual([false]);
    // An export without them (an older runtime) cannot tell: the replay takes the new branch.
    answers.length = 0;
    const { pendingSteps: _, ...older } = suspended;
    await replayRun(make(true), older);
    expect(answers).toEqual([true]);
  });

  it('stops at the waits a run is suspended on together, not taking the first for an added call', async () => {
    const tool = countedTool('step', { executions: 0 });
    const agent = createAgent({
      id: 'writer',
      handler: async () => {
        await callTool(tool, { n: 1 });
        return Promise.all([waitForSignal('a'), waitForSignal('b')]);
      },
    });
    const recorded = await recordRun(
      createAgent({ id: 'writer', handler: async () => callTool(tool, { n: 1 }) }),
    );
    const suspended: RunExport = {
      ...recorded,
      run: { ...recorded.run, status: 'waiting' },
      pendingSteps: [`${ROOT}/signal:a:0`, `${ROOT}/signal:b:0`],
    };
    expect(await replayRun(agent, suspended)).toMatchObject({ ok: true, complete: false, servedSteps: 1 });
  });

  it('never creates a resource: a stand-in is held, and fails when the handler itself uses it', async () => {
    let created = 0;
    const tool = countedTool('step', { executions: 0 });
    const make = (useInHandler: boolean) =>
      createAgent({
        id: 'writer',
        handler: async () => {
          const db = await equipResource('db', { create: () => ({ name: `db ${++created}` }), deps: [] });
          const value = await callTool(tool, { n: 1 });
          return useInHandler ? `${value} ${db.name}` : value;
        },
      });
    const exported = await recordRun(make(false));
    const before = created;
    expect(await replayRun(make(false), exported)).toMatchObject({ ok: true });
    expect(created).toBe(before);
    const used = await replayRun(make(true), exported);
    expect(used.error).toMatchObject({ name: ReplayResourceUsedError.errorName });
  });

  it('refuses a document that is not a run export, and an agent other than the recorded one', async () => {
    const agent = createAgent({ id: 'writer', handler: async () => 'x' });
    await expect(replayRun(agent, { format: 'other' })).rejects.toSatisfy(InvalidRunExportError.is);
    const exported = await recordRun(agent);
    await expect(replayRun(agent, { ...exported, version: 2 })).rejects.toThrow(/reads version 1/);
    const other = createAgent({ id: 'other', handler: async () => 'x' });
    await expect(replayRun(other, exported)).rejects.toThrow(/recorded by agent "writer"/);
    for (const pendingSteps of [['no-slash'], [''], 'root/a', ['root/a', 7]])
      expect(() => parseRunExport({ ...exported, pendingSteps })).toThrow(/pendingSteps/);
  });
});
