import { describe, expect, it } from 'vitest';
import { CallIdQueue } from './call-id-queue.js';

describe('CallIdQueue', () => {
  it('generates per-name ids counting across the whole conversation', () => {
    const queue = new CallIdQueue('gemini-fc');
    expect([queue.enqueue('a'), queue.enqueue('b'), queue.enqueue('a')]).toEqual([
      'gemini-fc-a-0',
      'gemini-fc-b-0',
      'gemini-fc-a-1',
    ]);
  });

  it('answers results oldest-first by name, and says when no call is waiting', () => {
    const queue = new CallIdQueue('p');
    queue.enqueue('f');
    queue.enqueue('f');
    expect([queue.answer('f'), queue.answer('f'), queue.answer('f')]).toEqual(['p-f-0', 'p-f-1', undefined]);
  });

  it('prefers provider ids, which stop waiting once answered by id', () => {
    const queue = new CallIdQueue('p');
    expect(queue.enqueue('f', 'native-1')).toBe('native-1');
    queue.enqueue('f', 'native-2');
    expect(queue.answer('f', 'native-2')).toBe('native-2');
    expect(queue.answer('f')).toBe('native-1');
    expect(queue.answer('f')).toBeUndefined();
  });
});
