import { describe, expect, it } from 'vitest';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { AbortError } from '../errors/run-errors.js';
import { AgentContext } from './agent-context.js';
import type { AgentDefinition } from './agent-definition.js';
import { RunState } from './run-state.js';

const definition = { id: 'a' } as AgentDefinition;

function contextIn(runSignal: AbortSignal, parent?: AgentContext): AgentContext {
  const run = parent?.run ?? new RunState(createEmbeddedServices({ signal: runSignal }), new Map());
  return new AgentContext({ definition, run, callPath: 'root/agent:a:0', parent, model: undefined });
}

describe('AgentContext signal (made when first asked for)', () => {
  it('is aborted with the run when it was never asked for before the cancel', () => {
    const run = new AbortController();
    const context = contextIn(run.signal);
    expect(() => context.throwIfAborted()).not.toThrow();
    run.abort(new AbortError('run r was cancelled'));
    expect(() => context.throwIfAborted()).toThrow('run r was cancelled');
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toBe(run.signal.reason);
  });

  it('follows the run once asked for, and aborts with the close reason at the end', async () => {
    const run = new AbortController();
    const context = contextIn(run.signal);
    const { signal } = context;
    expect(signal.aborted).toBe(false);
    await context.close('Agent success');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('Agent success');
    // Ended: a later cancel of the run changes nothing it holds.
    run.abort('late');
    expect(signal.reason).toBe('Agent success');
  });

  it('asked for only after the end, is aborted with the reason a linked one would hold', async () => {
    const closedFirst = contextIn(new AbortController().signal);
    await closedFirst.close('Agent error');
    expect(() => closedFirst.throwIfAborted()).toThrow(AbortError);
    expect(closedFirst.signal.reason).toBe('Agent error');

    const run = new AbortController();
    const cancelledFirst = contextIn(run.signal);
    run.abort('cancelled by the user');
    await cancelledFirst.close('Agent error');
    expect(cancelledFirst.signal.reason).toBe('cancelled by the user');
  });

  it('is aborted by its parent, and its abort handle does not reach the parent', () => {
    const run = new AbortController();
    const parent = contextIn(run.signal);
    const child = contextIn(run.signal, parent);
    child.controller.abort('handle');
    expect(child.signal.aborted).toBe(true);
    expect(parent.signal.aborted).toBe(false);
    const sibling = contextIn(run.signal, parent);
    parent.controller.abort('parent ended');
    expect(() => sibling.throwIfAborted()).toThrow('parent ended');
  });
});

describe('AgentContext draft and resource slots (made when first needed)', () => {
  it('has a draft before its first generation, and a fresh one for each generation', () => {
    const context = contextIn(new AbortController().signal);
    // Read before any generation (as a hook outside the loop would): one draft, kept.
    const early = context.draft;
    expect(early).toBe(context.draft);
    expect(context.nextPosition('tool', 'x')).toBe('root/agent:a:0/g0/tool:x:0');
    context.startGeneration(0);
    expect(context.draft).not.toBe(early);
    expect(context.nextPosition('tool', 'x')).toBe('root/agent:a:0/g0/tool:x:0');
    context.draft.tools.set('t', {} as never);
    context.startGeneration(1);
    expect(context.draft.tools.size).toBe(0);
    expect(context.nextPosition('tool', 'x')).toBe('root/agent:a:0/g1/tool:x:0');
  });

  it('keeps one set of resource slots, made at the first read', () => {
    const context = contextIn(new AbortController().signal);
    const slots = context.resources;
    expect(context.resources).toBe(slots);
    expect(slots.exposedDescriptors().size).toBe(0);
  });
});
