import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import type { AnyAgent } from '../context/agent-definition.js';
import type { ChildCall, ChildResolution, ChildRunner } from '../context/child-runner.js';
import type { JournalEntry } from '../context/journal-entry.js';
import { reborn } from '../context/reborn.js';
import type { RunServices, RunWaits } from '../context/run-services.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { ContextNotFoundError } from '../errors/agent-errors.js';
import { InvalidPatchIdError, PatchInsideToolError } from '../errors/patch-errors.js';
import { NonDeterminismError } from '../errors/run-errors.js';
import { callTool } from '../policy/call-tool.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { waitForSignal } from '../waits/wait-for-signal.js';
import { deprecatePatch, patched } from './patched.js';
import { reportProgress } from './report-progress.js';

/** A tool that logs its calls (so a test sees what executed rather than replayed). */
function loggedTool(name: string, log: string[]): ToolDefinition<z.ZodObject<{ n: z.ZodNumber }>> {
  return {
    name,
    description: name,
    parameters: z.object({ n: z.number() }),
    handler: async ({ n }) => {
      log.push(`${name}:${n}`);
      return `${name}:${n}`;
    },
  };
}

const ROOT = 'root/agent:patched-agent:0/g0';
const marker = (changeId: string, generation = 0) =>
  `root/agent:patched-agent:0/g${generation}/patch:${changeId}`;

/** Runs `handler` as agent `patched-agent` against `journal` (a copy: the original stays as it was). */
async function runOn(journal: InMemoryRunJournal | undefined, handler: () => Promise<unknown>) {
  const copy = new InMemoryRunJournal(journal?.snapshot());
  const agent = createAgent({ id: 'patched-agent', handler });
  const outcome = await executeRun({ agent, input: {}, services: createEmbeddedServices({ journal: copy }) });
  return { output: outcome.output, journal: copy };
}

describe('patched', () => {
  it('answers true on a fresh run and records a marker that takes no numbered position', async () => {
    const log: string[] = [];
    const step = loggedTool('step', log);
    const { output, journal } = await runOn(undefined, async () => {
      const answer = patched('new-step');
      await callTool(step, { n: 1 });
      return answer;
    });
    expect(output).toBe(true);
    const entries = journal.snapshot();
    expect(entries.get(marker('new-step'))).toMatchObject({ kind: 'patch', fingerprint: 'patch:new-step' });
    // The tool call took position 0, exactly as it would without the patch.
    expect([...entries.keys()].sort()).toEqual([`${ROOT}/tool:callTool-step:0`, marker('new-step')].sort());
  });

  it('answers false for a journal recorded past this point by code without the patch, and records nothing', async () => {
    const log: string[] = [];
    const [step, after] = [loggedTool('step', log), loggedTool('after', log)];
    const recorded = (
      await runOn(undefined, async () => {
        await callTool(step, { n: 1 });
        return callTool(after, { n: 9 });
      })
    ).journal;
    log.length = 0;
    const replay = await runOn(recorded, async () => {
      const answer = patched('new-args');
      await callTool(step, { n: answer ? 2 : 1 });
      return { answer, last: await callTool(after, { n: 9 }) };
    });
    expect(replay.output).toEqual({ answer: false, last: 'after:9' });
    expect(log).toEqual([]);
    expect(replay.journal.snapshot().has(marker('new-args'))).toBe(false);
  });

  it('makes the unguarded change fail the same replay with NonDeterminismError (what the patch prevents)', async () => {
    const step = loggedTool('step', []);
    const recorded = (await runOn(undefined, () => callTool(step, { n: 1 }))).journal;
    const error = await runOn(recorded, () => callTool(step, { n: 2 })).catch((caught: unknown) => caught);
    expect(NonDeterminismError.is(error)).toBe(true);
    expect(error).toMatchObject({ position: `${ROOT}/tool:callTool-step:0` });
  });

  it('answers true on replay of a run that recorded the marker, though recorded entries follow', async () => {
    const log: string[] = [];
    const step = loggedTool('step', log);
    const handler = async () => {
      const answer = patched('new-args');
      await callTool(step, { n: answer ? 2 : 1 });
      return answer;
    };
    const fresh = await runOn(undefined, handler);
    expect(fresh.output).toBe(true);
    expect(log).toEqual(['step:2']);
    log.length = 0;
    const replay = await runOn(fresh.journal, handler);
    expect(replay.output).toBe(true);
    expect(log).toEqual([]);
  });

  it('answers true for a journal that stops before this point (the run never got here) and records the marker then', async () => {
    const log: string[] = [];
    const [first, newStep] = [loggedTool('first', log), loggedTool('new', log)];
    const partial = (await runOn(undefined, () => callTool(first, { n: 1 }))).journal;
    log.length = 0;
    const resumed = await runOn(partial, async () => {
      await callTool(first, { n: 1 });
      const answer = patched('late-step');
      if (answer) await callTool(newStep, { n: 2 });
      return answer;
    });
    expect(resumed.output).toBe(true);
    expect(log).toEqual(['new:2']);
    expect(resumed.journal.snapshot().has(marker('late-step'))).toBe(true);
  });

  it('keeps its first answer for the whole generation, even once the replay has passed every recorded entry', async () => {
    const log: string[] = [];
    const step = loggedTool('step', log);
    const recorded = (await runOn(undefined, () => callTool(step, { n: 1 }))).journal;
    const replay = await runOn(recorded, async () => {
      const before = patched('twice');
      await callTool(step, { n: 1 });
      return [before, patched('twice'), patched('other')];
    });
    expect(replay.output).toEqual([false, false, true]);
  });

  it('asks again in each generation: a generation recorded before reborn answers false, the fresh one true', async () => {
    const log: string[] = [];
    const step = loggedTool('step', log);
    // The old code: generation 0 makes one call and reborns; generation 1 makes one call.
    const old = async () => {
      await callTool(step, { n: 1 });
      return log.length > 0 && log.length < 2 ? reborn() : 'done';
    };
    const recorded = (await runOn(undefined, old)).journal;
    const generations = recorded.snapshot();
    expect(generations.has('root/agent:patched-agent:0/g0/reborn')).toBe(true);
    // Drop generation 1's call: the run resumes in generation 1 as if it had crashed there.
    generations.delete('root/agent:patched-agent:0/g1/tool:callTool-step:0');
    const answers: boolean[] = [];
    const resumed = await runOn(new InMemoryRunJournal(generations), async () => {
      answers.push(patched('per-generation'));
      await callTool(step, { n: 1 });
      return 'done';
    });
    expect(resumed.output).toBe('done');
    expect(answers).toEqual([true]);
    expect(resumed.journal.snapshot().has(marker('per-generation', 1))).toBe(true);
  });

  it('answers false in an in-process child whose parent recorded calls after the child returned', async () => {
    const log: string[] = [];
    const [inner, outer] = [loggedTool('inner', log), loggedTool('outer', log)];
    const answers: boolean[] = [];
    const child = (withPatch: boolean) =>
      createAgent({
        id: 'child',
        handler: async () => {
          await callTool(inner, { n: 1 });
          if (withPatch) answers.push(patched('in-child'));
          return 'child done';
        },
      });
    const parent = (withPatch: boolean) => async () => {
      await child(withPatch)();
      return callTool(outer, { n: 2 });
    };
    const recorded = (await runOn(undefined, parent(false))).journal;
    // Without the child's entry the child runs again (replaying its own calls): its parent went on past it.
    const entries = recorded.snapshot();
    entries.delete(`${ROOT}/agent:child:0`);
    const replay = await runOn(new InMemoryRunJournal(entries), parent(true));
    expect(replay.output).toBe('outer:2');
    expect(answers).toEqual([false]);
  });

  it('does not count the reportProgress calls of a replayed tool as recorded past this point', async () => {
    const log: string[] = [];
    const reporting: ToolDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
      ...loggedTool('reporting', log),
      handler: async ({ n }) => {
        await reportProgress({ n });
        return n;
      },
    };
    const recorded = (await runOn(undefined, () => callTool(reporting, { n: 1 }))).journal;
    expect([...recorded.snapshot().keys()].some((position) => position.includes('/progress:tool:'))).toBe(
      true,
    );
    const replay = await runOn(recorded, async () => {
      await callTool(reporting, { n: 1 });
      return patched('after-tool');
    });
    expect(replay.output).toBe(true);
  });

  it('fails the next durable step when the marker could not be stored', async () => {
    class FailingMarkerJournal extends InMemoryRunJournal {
      override async record(position: string, entry: JournalEntry): Promise<void> {
        if (entry.kind === 'patch') throw new Error('journal unavailable');
        return super.record(position, entry);
      }
    }
    const journal = new FailingMarkerJournal();
    const log: string[] = [];
    const step = loggedTool('step', log);
    const agent = createAgent({
      id: 'patched-agent',
      handler: async () => {
        patched('lost-marker');
        return callTool(step, { n: 1 });
      },
    });
    const run = executeRun({ agent, input: {}, services: createEmbeddedServices({ journal }) });
    await expect(run).rejects.toThrow('journal unavailable');
    // The step ran but was not recorded: a journal never holds an entry past a true without its marker.
    expect(journal.snapshot().size).toBe(0);
  });

  it('refuses an invalid change id, a call inside a tool and a call outside an agent run', async () => {
    for (const bad of ['', 'has space', 'a/b', 'x'.repeat(201), 42 as unknown as string]) {
      await expect(runOn(undefined, async () => patched(bad))).rejects.toSatisfy(InvalidPatchIdError.is);
    }
    const inTool: ToolDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
      ...loggedTool('inside', []),
      handler: async () => patched('in-tool'),
    };
    const error = await runOn(undefined, () => callTool(inTool, { n: 1 })).catch((caught: unknown) => caught);
    expect(PatchInsideToolError.is(error)).toBe(true);
    expect(error).toMatchObject({ apiName: 'patched', toolPosition: 'tool:callTool-inside:0' });
    expect(() => patched('outside')).toThrow(ContextNotFoundError);
    expect(() => deprecatePatch('outside')).toThrow(ContextNotFoundError);
  });
});

describe('deprecatePatch', () => {
  it('replays a run that recorded the marker and runs fresh, recording nothing', async () => {
    const log: string[] = [];
    const step = loggedTool('step', log);
    const patchedCode = async () => {
      const answer = patched('new-args');
      return callTool(step, { n: answer ? 2 : 1 });
    };
    const deprecatedCode = async () => {
      deprecatePatch('new-args');
      return callTool(step, { n: 2 });
    };
    const marked = (await runOn(undefined, patchedCode)).journal;
    log.length = 0;
    const replay = await runOn(marked, deprecatedCode);
    expect(replay.output).toBe('step:2');
    expect(log).toEqual([]);
    const fresh = await runOn(undefined, deprecatedCode);
    expect(fresh.output).toBe('step:2');
    expect(log).toEqual(['step:2']);
    expect([...fresh.journal.snapshot().values()].some((entry) => entry.kind === 'patch')).toBe(false);
    await expect(runOn(undefined, async () => deprecatePatch('bad id'))).rejects.toSatisfy(
      InvalidPatchIdError.is,
    );
  });
});

/**
 * A worker's child runner and waits, as far as a suspension needs them: a child call is
 * pending until the test finishes it (`finish`), a signal is there once the test sends it.
 */
class SuspendingServices {
  /** Positions the runner was asked about, in order. */
  readonly asked: string[] = [];
  readonly #finished = new Map<string, unknown>();
  readonly #signals = new Map<string, unknown>();

  finish(position: string, value: unknown): void {
    this.#finished.set(position, value);
  }

  send(name: string, payload: unknown): void {
    this.#signals.set(name, payload);
  }

  /** Services of one execution over `journal` (the journal it loads, pending steps included). */
  services(journal: InMemoryRunJournal): RunServices {
    const children: ChildRunner = {
      maxChildrenPerRun: 10,
      resolve: async (call: ChildCall): Promise<ChildResolution> => {
        this.asked.push(call.position);
        if (!this.#finished.has(call.position))
          return { state: 'pending', childRunId: `c-${call.position}`, enqueued: true };
        const value = this.#finished.get(call.position);
        return {
          state: 'finished',
          childRunId: 'c',
          outcome: { ok: true, value },
          usage: emptyUsage(),
          modelCalls: 0,
        };
      },
    };
    const waits: RunWaits = {
      takeSignal: async (name, _position, fingerprint) =>
        this.#signals.has(name)
          ? {
              kind: 'signal',
              fingerprint,
              outcome: { ok: true, value: { id: 's1', payload: this.#signals.get(name) } },
              at: 0,
            }
          : undefined,
      expectSignal: async () => {},
      approvalOf: async () => undefined,
      requestApproval: async () => false,
    };
    return { ...createEmbeddedServices({ journal }), children, waits };
  }
}

/** One execution of `agent` on `journal` (a copy, with the pending steps given). */
async function execute(
  agent: AnyAgent,
  world: SuspendingServices,
  recorded?: { journal: InMemoryRunJournal; pendingSteps?: readonly string[] },
) {
  const journal = new InMemoryRunJournal(recorded?.journal.snapshot(), recorded?.pendingSteps);
  const outcome = await executeRun({ agent, input: {}, services: world.services(journal) });
  return { outcome, journal };
}

describe('patched right before the step a run suspended on', () => {
  const PARENT = 'root/agent:patched-agent:0/g0';
  const Child = createAgent({ id: 'child', handler: async ({ n }: { n: number }) => n });
  const Other = createAgent({ id: 'other', handler: async ({ n }: { n: number }) => -n });
  const log: string[] = [];
  const step = loggedTool('step', log);
  const oldCode = createAgent({
    id: 'patched-agent',
    handler: async () => {
      await callTool(step, { n: 1 });
      return { child: await Child({ n: 1 }) };
    },
  });
  const answers: boolean[] = [];
  /** The new code: the change (call another agent, or the same with other props) right before the pending call. */
  const newCode = (change: 'other-agent' | 'other-props') =>
    createAgent({
      id: 'patched-agent',
      handler: async () => {
        await callTool(step, { n: 1 });
        const answer = patched('call-other');
        answers.push(answer);
        if (!answer) return { child: await Child({ n: 1 }) };
        return change === 'other-agent' ? { other: await Other({ n: 1 }) } : { child: await Child({ n: 2 }) };
      },
    });

  it('stores the positions of the steps the execution suspended on', async () => {
    const world = new SuspendingServices();
    const { outcome, journal } = await execute(oldCode, world);
    expect(outcome.suspended?.pendingSteps).toEqual([`${PARENT}/agent:child:0`]);
    // No entry for the pending call: it is reached all the same.
    expect(journal.snapshot().has(`${PARENT}/agent:child:0`)).toBe(false);
  });

  for (const change of ['other-agent', 'other-props'] as const) {
    it(`answers false on resume and finishes the pending call (the change: ${change})`, async () => {
      const world = new SuspendingServices();
      const first = await execute(oldCode, world);
      const pendingSteps = first.outcome.suspended?.pendingSteps ?? [];
      world.finish(`${PARENT}/agent:child:0`, 'child done');
      world.asked.length = 0;
      answers.length = 0;
      const resumed = await execute(newCode(change), world, { journal: first.journal, pendingSteps });
      expect(answers).toEqual([false]);
      expect(resumed.outcome.output).toEqual({ child: 'child done' });
      // Only the call the run was suspended on: no second child, no other fingerprint asked.
      expect(world.asked).toEqual([`${PARENT}/agent:child:0`]);
      expect(resumed.journal.snapshot().has(marker('call-other'))).toBe(false);
    });
  }

  it('answers true without the pending steps (a journal of an older runtime): what they are for', async () => {
    const world = new SuspendingServices();
    const first = await execute(oldCode, world);
    answers.length = 0;
    const resumed = await execute(newCode('other-agent'), world, { journal: first.journal });
    expect(answers).toEqual([true]);
    expect(resumed.outcome.suspended?.pendingSteps).toEqual([`${PARENT}/agent:other:0`]);
  });

  it('answers true on a fresh run, which suspends on the new call and takes it again on resume', async () => {
    const world = new SuspendingServices();
    answers.length = 0;
    const first = await execute(newCode('other-agent'), world);
    const pendingSteps = first.outcome.suspended?.pendingSteps ?? [];
    expect(pendingSteps).toEqual([`${PARENT}/agent:other:0`]);
    world.finish(`${PARENT}/agent:other:0`, 'other done');
    const resumed = await execute(newCode('other-agent'), world, { journal: first.journal, pendingSteps });
    expect(answers).toEqual([true, true]);
    expect(resumed.outcome.output).toEqual({ other: 'other done' });
  });

  it('answers false on resume of a run parked on a signal (no timeout: nothing journaled before it parks)', async () => {
    const waiting = (withPatch: boolean) =>
      createAgent({
        id: 'patched-agent',
        handler: async () => {
          if (withPatch) answers.push(patched('wait-for-other'));
          const name = withPatch && answers.at(-1) ? 'other' : 'go';
          return waitForSignal(name);
        },
      });
    const world = new SuspendingServices();
    const first = await execute(waiting(false), world);
    const pendingSteps = first.outcome.suspended?.pendingSteps ?? [];
    expect(pendingSteps).toEqual([`${PARENT}/signal:go:0`]);
    expect(first.journal.snapshot().size).toBe(0);
    world.send('go', 'went');
    answers.length = 0;
    const resumed = await execute(waiting(true), world, { journal: first.journal, pendingSteps });
    expect(answers).toEqual([false]);
    expect(resumed.outcome.output).toBe('went');
    // Without them the journal is empty and the resumed run would take the new path.
    answers.length = 0;
    await execute(waiting(true), world, { journal: first.journal });
    expect(answers).toEqual([true]);
  });
});
