import { describe, expect, it } from 'vitest';
import type { Message } from '../types/message.js';
import { groupIntoTurns } from './group-into-turns.js';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 't', arguments: '{}' } });

describe('groupIntoTurns', () => {
  it('keeps an assistant with parallel tool calls and all its results in one turn', () => {
    const history: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: '1', tool_call_id: 'a' },
      { role: 'tool', content: '2', tool_call_id: 'b' },
      { role: 'assistant', content: 'answer' },
    ];
    const turns = groupIntoTurns(history);
    expect(turns.map((turn) => turn.messages.length)).toEqual([1, 3, 1]);
    expect(turns.map((turn) => turn.start)).toEqual([0, 1, 4]);
  });

  it('makes every other message its own turn, system included', () => {
    const history: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b', tool_calls: [] },
      { role: 'tool', content: 'stray', tool_call_id: 'x' },
    ];
    expect(groupIntoTurns(history)).toHaveLength(4);
  });

  it('returns no turns for an empty history', () => {
    expect(groupIntoTurns([])).toEqual([]);
  });
});
