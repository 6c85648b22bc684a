import { describe, expect, it } from 'vitest';
import type { ChildCall, ChildResolution, ChildRunner } from '../context/child-runner.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { NonPortableJsonError } from '../json/non-portable-json-error.js';
import { createAgent } from './create-agent.js';
import { executeRun } from './execute-run.js';

class AskedChildRunner implements ChildRunner {
  readonly maxChildrenPerRun = 1000;
  readonly asked: ChildCall[] = [];

  async resolve(call: ChildCall): Promise<ChildResolution> {
    this.asked.push(call);
    return { state: 'pending', childRunId: `c-${call.position}`, enqueued: true };
  }
}

let childRuns = 0;
const Child = createAgent({
  id: 'child',
  handler: async (_props: { since: Date }) => {
    childRuns++;
    return 'done';
  },
});

/** Calls the child with a Date in its props and returns what the call threw. */
const Caller = createAgent({
  id: 'caller',
  handler: async () => {
    try {
      await Child({ since: new Date(0) });
      return 'called';
    } catch (error) {
      return { error };
    }
  },
});

describe('child props that have no faithful JSON form', () => {
  it('are refused in process before the child runs, naming the path (they used to hash as {})', async () => {
    childRuns = 0;
    const journal = new InMemoryRunJournal();
    const outcome = await executeRun({
      agent: Caller,
      input: {},
      services: createEmbeddedServices({ journal }),
    });
    const { error } = outcome.output as { error: unknown };
    expect(NonPortableJsonError.is(error)).toBe(true);
    expect(error).toMatchObject({ path: '$.since', reason: 'class:Date' });
    expect((error as Error).message).toContain('Props of child agent "child"');
    expect(childRuns).toBe(0);
    expect(journal.snapshot().size).toBe(0);
  });

  it('throw the documented TypeError on a worker before a child run is asked for', async () => {
    const children = new AskedChildRunner();
    const outcome = await executeRun({
      agent: Caller,
      input: {},
      services: { ...createEmbeddedServices(), children },
    });
    const { error } = outcome.output as { error: unknown };
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/props of child agent "child".*"since".*class:Date/);
    expect(children.asked).toEqual([]);
  });
});
