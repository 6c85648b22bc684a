import { describe, expect, it } from 'vitest';
import { runKeys } from './keys.js';

describe('runKeys', () => {
  it('builds every key of a run under its hash tag', () => {
    const keys = runKeys('p', 'run-1');
    expect(keys.record).toBe('p:run:{r:run-1}:record');
    expect(keys.journal).toBe('p:run:{r:run-1}:journal');
    expect(keys.memoryOf('root')).toBe('p:run:{r:run-1}:memory:root');
    expect(keys.signalsOf('go')).toBe('p:run:{r:run-1}:signals:go');
  });

  it('gives the same keys to every caller of a run, and they cannot be changed', () => {
    const first = runKeys('p', 'run-2');
    expect(runKeys('p', 'run-2')).toBe(first);
    expect(() => {
      (first as { record: string }).record = 'elsewhere';
    }).toThrow(TypeError);
    expect(runKeys('p', 'run-2').record).toBe('p:run:{r:run-2}:record');
  });

  it('keeps the keys of the ~2,000 runs a busy fan-out worker has in hand', () => {
    const first = runKeys('busy', 'run-first');
    for (let i = 0; i < 3000; i++) runKeys('busy', `run-${i}`);
    expect(runKeys('busy', 'run-first')).toBe(first);
  });

  it('builds every key, named or of a call path, alike from a fresh and a kept object', () => {
    const keys = runKeys('p', 'run-3');
    expect(keys.memoryOf('')).toBe('p:run:{r:run-3}:memory:');
    expect(keys.memoryOf('')).toBe(runKeys('p', 'run-3').memoryOf(''));
    expect(keys.usageReservations).toBe('p:run:{r:run-3}:usage-reservations');
    expect(keys.children).toBe('p:run:{r:run-3}:children');
  });

  it('keeps prefixes and run ids apart, past the cache bounds', () => {
    for (let i = 0; i < 600; i++)
      expect(runKeys(`q${i % 12}`, `run-${i}`).cancel).toBe(`q${i % 12}:run:{r:run-${i}}:cancel`);
    expect(runKeys('q0', 'run-0').cancel).toBe('q0:run:{r:run-0}:cancel');
    expect(runKeys('other', 'run-0').cancel).toBe('other:run:{r:run-0}:cancel');
  });
});
