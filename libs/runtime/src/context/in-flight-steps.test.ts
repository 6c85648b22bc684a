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

  it('lists the positions of the steps in flight (a tool and the child call inside it), not those that ended', async () => {
    const steps = new InFlightSteps();
    const settled = watch(steps);
    const done = steps.begin('root/agent:a:0/g0/model:0');
    const marker = steps.begin(); // a patch marker write: no position
    steps.end(done);
    steps.end(marker);
    const tool = steps.begin('root/agent:a:0/g0/tool:call_1:0');
    await steps.run(tool, async () => {
      const child = steps.begin('root/agent:a:0/g0/tool:call_1:0/agent:c:0');
      steps.run(child, () => steps.blockCurrent());
    });
    const signal = steps.begin('root/agent:a:0/g0/signal:go:0');
    steps.run(signal, () => steps.blockCurrent());
    expect(await settled()).toBe(true);
    expect(steps.positions()).toEqual([
      'root/agent:a:0/g0/tool:call_1:0',
      'root/agent:a:0/g0/tool:call_1:0/agent:c:0',
      'root/agent:a:0/g0/signal:go:0',
    ]);
  });

  it('never reports a run with nothing in flight', async () => {
    const steps = new InFlightSteps();
    const settled = watch(steps);
    steps.end(steps.begin());
    expect(await settled()).toBe(false);
  });
});
