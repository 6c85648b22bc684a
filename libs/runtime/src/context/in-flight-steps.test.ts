import { describe, expect, it } from 'vitest';
import { InFlightSteps } from './in-flight-steps.js';

const settled = (promise: Promise<void>) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20))]);

describe('InFlightSteps', () => {
  it('reports all-blocked only once every in-flight step waits on a child', async () => {
    const steps = new InFlightSteps();
    const first = steps.begin();
    const second = steps.begin();
    steps.run(first, () => steps.blockCurrent());
    expect(await settled(steps.allBlocked)).toBe(false);
    steps.run(second, () => steps.blockCurrent());
    expect(await settled(steps.allBlocked)).toBe(true);
  });

  it('does not report a step that ended just before the next one begins in the same turn', async () => {
    const steps = new InFlightSteps();
    const child = steps.begin();
    steps.run(child, () => steps.blockCurrent());
    const memo = steps.begin();
    steps.end(memo);
    await Promise.resolve();
    steps.begin(); // the handler's next durable call, started from a promise callback
    expect(await settled(steps.allBlocked)).toBe(false);
  });

  it('marks the steps around a child call blocked (a tool handler awaiting an agent)', async () => {
    const steps = new InFlightSteps();
    const tool = steps.begin();
    await steps.run(tool, async () => {
      const child = steps.begin();
      steps.run(child, () => steps.blockCurrent());
    });
    expect(await settled(steps.allBlocked)).toBe(true);
  });

  it('never reports a run with nothing in flight', async () => {
    const steps = new InFlightSteps();
    steps.end(steps.begin());
    expect(await settled(steps.allBlocked)).toBe(false);
  });
});
