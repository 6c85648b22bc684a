import { describe, expect, it } from 'vitest';
import { SuspendedRunEvents } from './suspended-run-events.js';

const written = (...texts: string[]) => ({ texts, ids: texts.map((_, index) => `1-${index}`) });

describe('SuspendedRunEvents', () => {
  it('gives what a run wrote to its next execution once, then forgets it', () => {
    const kept = new SuspendedRunEvents();
    kept.keep('r1', written('a', 'b'));
    expect(kept.take('r1')).toEqual(written('a', 'b'));
    expect(kept.take('r1')).toBeUndefined();
  });

  it('keeps nothing for a run whose events were not all known, and replaces what it kept', () => {
    const kept = new SuspendedRunEvents();
    kept.keep('r1', written('a'));
    kept.keep('r1', undefined);
    expect(kept.take('r1')).toBeUndefined();
    kept.keep('r2', written('a'));
    kept.keep('r2', written('a', 'b'));
    expect(kept.size).toBe(1);
    expect(kept.take('r2')).toEqual(written('a', 'b'));
  });

  it('is bounded by runs and by bytes, the oldest pushed out first', () => {
    const kept = new SuspendedRunEvents();
    for (let index = 0; index < 600; index++) kept.keep(`r${index}`, written('a'));
    expect(kept.size).toBe(512);
    expect(kept.take('r0')).toBeUndefined();
    expect(kept.take('r599')).toEqual(written('a'));
    const large = 'x'.repeat(3 * 1024 * 1024);
    kept.keep('big1', written(large));
    kept.keep('big2', written(large));
    expect(kept.take('big1')).toBeUndefined();
    expect(kept.take('big2')).toEqual(written(large));
    kept.keep('huge', written(large, large));
    expect(kept.take('huge')).toBeUndefined();
  });
});
