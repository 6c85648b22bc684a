import { describe, expect, it } from 'vitest';
import { recordingSummarizer } from '../testing/recording-summarizer.js';
import { toolCall } from '../testing/tool-call.js';
import type { Message } from '../types/message.js';
import { compactHistory, planCompaction } from './plan-compaction.js';
import { summarizeHistory } from './summarize-history.js';

function conversation(): Message[] {
  return [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'weather?' }, // turn 1
    { role: 'assistant', content: '', tool_calls: [toolCall('c1', 'weather'), toolCall('c2', 'weather')] }, // turn 2
    { role: 'tool', content: 'sunny', tool_call_id: 'c1' },
    { role: 'tool', content: 'windy', tool_call_id: 'c2' },
    { role: 'assistant', content: 'Sunny and windy.' }, // turn 3
    { role: 'user', content: 'thanks' }, // turn 4
  ];
}

const recorder = (answer = 'the user asked about the weather') => recordingSummarizer(answer);

describe('planCompaction', () => {
  it('keeps system messages out and the last turn by default, splitting only between turns', () => {
    const history = conversation();
    expect(planCompaction(history)).toEqual({
      system: [history[0]],
      toSummarize: history.slice(1, 6),
      toKeep: [history[6]],
    });
    expect(planCompaction(history, { keepRecentTurns: 3 }).toSummarize).toEqual([history[1]]);
  });

  it('summarises everything at 0 and nothing at or above the number of turns', () => {
    const history = conversation();
    expect(planCompaction(history, { keepRecentTurns: 0 })).toMatchObject({
      toSummarize: history.slice(1),
      toKeep: [],
    });
    for (const keepRecentTurns of [4, 9]) {
      expect(planCompaction(history, { keepRecentTurns })).toEqual({
        system: [history[0]],
        toSummarize: [],
        toKeep: history.slice(1),
      });
    }
  });

  it('clamps a negative keep to 0 and floors a fractional one', () => {
    const history = conversation();
    expect(planCompaction(history, { keepRecentTurns: -2 }).toKeep).toEqual([]);
    expect(planCompaction(history, { keepRecentTurns: 2.7 }).toKeep).toEqual(history.slice(5));
  });

  it('keeps pinned turns, and plans exactly what summarizeHistory then summarises', async () => {
    const history = conversation();
    history[1] = { ...history[1], pinned: true } as Message;
    for (const keepRecentTurns of [0, 1, 2]) {
      const plan = planCompaction(history, { keepRecentTurns });
      expect(plan.toKeep[0]).toBe(history[1]);
      const { requests, summarize } = recorder();
      await summarizeHistory(history, { summarize, keepRecentTurns });
      expect(requests[0]?.messages).toEqual(plan.toSummarize);
    }
  });

  it('gives empty lists for an empty history', () => {
    expect(planCompaction([])).toEqual({ system: [], toSummarize: [], toKeep: [] });
  });
});

describe('compactHistory', () => {
  it('returns the history summarizeHistory builds: system, the summary, the kept turn', async () => {
    const history = conversation();
    const compacted = await compactHistory(history, recorder());
    expect(compacted).toHaveLength(3);
    expect(compacted[0]).toBe(history[0]);
    expect(compacted[1]).toMatchObject({ role: 'user', _compaction_summary: true });
    expect(compacted[1]?.content).toContain('the user asked about the weather');
    expect(compacted[2]).toBe(history[6]);
  });

  it('returns the input array itself when there is nothing to do or the summary is blank', async () => {
    const history = conversation();
    expect(await compactHistory(history, { ...recorder(), keepRecentTurns: 4 })).toBe(history);
    expect(await compactHistory(history, recorder('  '))).toBe(history);
    const empty: Message[] = [];
    const { requests, summarize } = recorder();
    expect(await compactHistory(empty, { summarize })).toBe(empty);
    expect(requests).toEqual([]);
  });
});
