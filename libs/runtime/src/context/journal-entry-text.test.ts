import { describe, expect, it } from 'vitest';
import type { JournalEntry } from './journal-entry.js';
import { journalEntryText } from './journal-entry-text.js';

const usage = {
  promptTokens: 3,
  completionTokens: 4,
  totalTokens: 7,
  calls: 1,
} as unknown as JournalEntry['usage'];

describe('journalEntryText', () => {
  it.each<[string, JournalEntry]>([
    [
      'a value',
      { kind: 'tool', fingerprint: 'tool:ab', outcome: { ok: true, value: { a: [1, 'x"y'] } }, at: 17 },
    ],
    [
      'no value',
      { kind: 'progress', fingerprint: 'progress', outcome: { ok: true, value: undefined }, at: 1 },
    ],
    ['null', { kind: 'memo', fingerprint: 'memo:1', outcome: { ok: true, value: null }, at: 2 }],
    [
      'costs, usage and own usage',
      {
        kind: 'model-turn',
        fingerprint: 'model-turn/v2:position=1',
        outcome: { ok: true, value: 'text' },
        at: 3,
        costs: { microUsd: 5 },
        usage,
        ownUsage: usage,
      },
    ],
    [
      'a fingerprint and kind that need escaping',
      {
        kind: 'tool"\\' as JournalEntry['kind'],
        fingerprint: 'tool:wé\u0001\n"x\\y\ud800:\u{1f600}',
        outcome: { ok: true, value: 1 },
        at: 4,
      },
    ],
    ['a time of -0', { kind: 'memo', fingerprint: 'memo:1', outcome: { ok: true, value: 1 }, at: -0 }],
    [
      'a time that is not finite',
      { kind: 'memo', fingerprint: 'm', outcome: { ok: true, value: 1 }, at: Number.NaN },
    ],
  ])('writes what JSON.stringify writes for an entry with %s', (_what, entry) => {
    const value = entry.outcome.ok ? entry.outcome.value : undefined;
    const valueText = value === undefined ? undefined : JSON.stringify(value);
    expect(journalEntryText(entry, valueText)).toBe(JSON.stringify(entry));
  });
});
