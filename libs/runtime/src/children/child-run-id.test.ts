import { describe, expect, it } from 'vitest';
import { hashJson } from '../engine/fingerprint.js';
import { childRunIdOf } from './child-run-id.js';

describe('childRunIdOf', () => {
  const position = 'root/agent:planner:0/g1/agent:researcher:2';

  it('gives the same child the same id on every replay', () => {
    expect(childRunIdOf('r1', 'r1', position, 0)).toBe(childRunIdOf('r1', 'r1', position, 0));
  });

  it('gives another position, generation, parent or attempt another id', () => {
    const ids = new Set([
      childRunIdOf('r1', 'r1', position, 0),
      childRunIdOf('r1', 'r1', position.replace('g1', 'g0'), 0),
      childRunIdOf('r1', 'r1', position.replace(':2', ':3'), 0),
      childRunIdOf('r1', 'r1.abc', position, 0),
      childRunIdOf('r1', 'r1', position, 1),
    ]);
    expect(ids.size).toBe(5);
  });

  it('keeps the root id readable, stays short at any depth and has no ":" (BullMQ refuses it in job ids)', () => {
    const id = childRunIdOf('order-42', `order-42.${'f'.repeat(16)}`, `${position}/g0/agent:deep:0`, 0);
    expect(id).toMatch(/^order-42\.[0-9a-f]{16}$/);
  });
});

describe('childRunIdOf and hashJson', () => {
  it('hashes the text hashJson wrote for the same triple, so ids of children enqueued before stay the same', () => {
    const cases: [string, string, number][] = [
      ['r1', 'root/agent:planner:0/g1/agent:researcher:2', 0],
      ['r1.0123456789abcdef', 'root/agent:a "quoted" \\ é 😀:0/g0/agent:b:7', 3],
      ['tenant~x:order-42', 'root/agent:x:0/g12/agent:y:1234', 4],
    ];
    for (const [parent, position, attempt] of cases)
      expect(childRunIdOf('root', parent, position, attempt)).toBe(
        `root.${hashJson([parent, position, attempt])}`,
      );
  });

  it('refuses an attempt that is not an integer', () => {
    expect(() => childRunIdOf('r1', 'r1', 'root/agent:a:0', Number.NaN)).toThrow(RangeError);
  });
});
