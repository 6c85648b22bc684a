import { describe, expect, it } from 'vitest';
import { InFlightSteps } from './in-flight-steps.js';

/**
 * Whether `steps.allBlocked` has resolved once the check it schedules has run: the check runs in
 * a `setImmediate` queued when a step ends or blocks, so one later `setImmediate` (immediates run
 * in order, each followed by its promise callbacks) sees its outcome. No timer decides it.
 */
function watch(steps: InFlightSteps): () => Promise<boolean> {
  let resolved = false;
  void steps.allBlocked.then(() => {
    resolved = true;
  });
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return resolved;
  };
}

describe('InFlightSteps', () => {
  it('reports all-blocked only once every in-flight step waits on a child', async () => {
    const steps = new InFlightSteps();
    const settled = watch(steps);
    const first = steps.begin();
    const second = steps.begin();
    steps.run(first, () => steps.blockCurrent());
    expect(await settled()).toBe(false);
    steps.run(second, () => steps.blockCurrent());
    expect(await settled()).toBe(true);
  });

  it('does not report a step that ended just before the next one begins in the same turn', async () => {
    const steps = new InFlightSteps();
    const settled = watch(steps);
    const child = steps.begin();
    steps.run(child, () => steps.blockCurrent());
    const memo = steps.begin();
    steps.end(memo);
    await Promise.resolve();
    const next = steps.begin(); // the handler's next durable call, started from a promise callback
    expect(await settled()).toBe(false);
    // Once that call blocks on a child too, the run can suspend: the check above could see it.
    steps.run(next, () => steps.blockCurrent());
    expect(await settled()).toBe(true);
  });

  it('marks the steps around a child call blocked (a tool handler awaiting an agent)', async () => {
    const steps = new InFlightSteps();
    const settled = watch(steps);
    const tool = steps.begin();
    await steps.run(tool, async () => {
      const child = steps.begin();
      steps.run(child, () => steps.blockCurrent());
    });
    expect(await settled()).toBe(true);
  });

  it('never reports a run with nothing in flight', async () => {
    const steps = new InFlightSteps();
    const settled = watch(steps);
    steps.end(steps.begin());
    expect(await settled()).toBe(false);
  });
});
