import { describe, expect, it } from 'vitest';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { RunAttempt } from './run-attempt.js';

describe('RunAttempt', () => {
  it("gives every attempt its own token, shorter than a UUID, the process' random part first", () => {
    const tokens = Array.from({ length: 2000 }, () => new RunAttempt('r').token);
    expect(new Set(tokens).size).toBe(tokens.length);
    const [first = '', second = ''] = tokens;
    expect(first.length).toBeLessThan(36);
    expect(first.split('.')[0]).toHaveLength(22);
    expect(first.split('.')[0]).toBe(second.split('.')[0]);
    expect(first).not.toBe('');
  });

  it('calls its listener once superseded, with the first reason', () => {
    const attempt = new RunAttempt('r');
    const reasons: unknown[] = [];
    attempt.onSuperseded((reason) => reasons.push(reason));
    const first = new AttemptSupersededError('r', 'a write');
    attempt.supersede(first);
    attempt.supersede(new AttemptSupersededError('r', 'another write'));
    expect(reasons).toEqual([first]);
    expect(attempt.reason).toBe(first);
    expect(attempt.signal.aborted).toBe(true);
  });
});
