import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, ToolCall } from '../types/message.js';
import { ensureValidHistory } from './ensure-valid-history.js';

const call = (id: string, name = 'lookup'): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: '{}' },
});
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string, ...calls: ToolCall[]): Message =>
  calls.length ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content };
const tool = (id: string | undefined, content: string): Message =>
  id === undefined ? { role: 'tool', content } : { role: 'tool', tool_call_id: id, content };
const system = (content: string): Message => ({ role: 'system', content });
const placeholder = (id: string, name = 'lookup'): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: '[No tool result available]',
  name,
});
const continues: Message = { role: 'user', content: '[Conversation continues]' };

describe('ensureValidHistory', () => {
  it('returns an empty history unchanged', () => {
    expect(ensureValidHistory([])).toEqual([]);
  });

  it('returns a valid history deep-equal, without mutating the input array or its messages', () => {
    const history = [
      user('weather?'),
      assistant('', call('c1')),
      tool('c1', 'sunny'),
      assistant('It is sunny.'),
    ];
    const frozen = Object.freeze(history.map((message) => Object.freeze({ ...message })));
    const result = ensureValidHistory(frozen);
    expect(result).toEqual(history);
    expect(result).not.toBe(frozen);
    expect(result[0]).toBe(frozen[0]);
  });

  describe('pass 1: orphan tool results', () => {
    it('drops a tool result whose id no earlier assistant declared', () => {
      const result = ensureValidHistory([user('hi'), tool('ghost', 'x'), assistant('hello')]);
      expect(result).toEqual([user('hi'), assistant('hello')]);
    });

    it('answers with a single continues message when every message was an orphan', () => {
      expect(ensureValidHistory([tool('a', 'x'), tool('b', 'y')])).toEqual([continues]);
    });

    it('accepts an id declared by any earlier assistant, not only the nearest', () => {
      const history = [
        user('q'),
        assistant('', call('c1')),
        tool('c1', 'r1'),
        assistant('', call('c2')),
        tool('c2', 'r2'),
        tool('c1', 'again'),
      ];
      expect(ensureValidHistory(history)).toEqual(history);
    });

    it('keeps a tool message that has no id, and puts a user placeholder before it when it comes first', () => {
      expect(ensureValidHistory([tool(undefined, 'loose'), user('q')])).toEqual([
        continues,
        tool(undefined, 'loose'),
        user('q'),
      ]);
      expect(ensureValidHistory([user('q'), tool('', 'empty id')])).toEqual([
        user('q'),
        tool('', 'empty id'),
      ]);
    });

    it('drops a result that comes before its call and answers the call with a placeholder', () => {
      const result = ensureValidHistory([user('q'), tool('c1', 'early'), assistant('', call('c1'))]);
      expect(result).toEqual([user('q'), assistant('', call('c1')), placeholder('c1')]);
    });

    it('leaves only the system messages when the rest were orphans, without a user placeholder', () => {
      expect(ensureValidHistory([system('rules'), tool('x', 'orphan')])).toEqual([system('rules')]);
    });
  });

  describe('pass 2: missing tool results', () => {
    it('adds a placeholder named after the call for a call without a result', () => {
      const result = ensureValidHistory([user('q'), assistant('', call('c1', 'search'))]);
      expect(result).toEqual([user('q'), assistant('', call('c1', 'search')), placeholder('c1', 'search')]);
    });

    it('adds a placeholder only for the missing one of parallel calls, right after the assistant', () => {
      const result = ensureValidHistory([
        user('q'),
        assistant('', call('c1', 'a'), call('c2', 'b')),
        tool('c2', 'two'),
        user('next'),
      ]);
      expect(result).toEqual([
        user('q'),
        assistant('', call('c1', 'a'), call('c2', 'b')),
        placeholder('c1', 'a'),
        tool('c2', 'two'),
        user('next'),
      ]);
    });

    it('scans through system messages between a call and its result', () => {
      const history = [user('q'), assistant('', call('c1')), system('note'), tool('c1', 'r')];
      expect(ensureValidHistory(history)).toEqual(history);
    });

    it('answers a late result (after a user message) with a placeholder and keeps the late result too', () => {
      const result = ensureValidHistory([
        user('q'),
        assistant('', call('c1')),
        user('well?'),
        tool('c1', 'late'),
      ]);
      expect(result).toEqual([
        user('q'),
        assistant('', call('c1')),
        placeholder('c1'),
        user('well?'),
        tool('c1', 'late'),
      ]);
    });

    it('answers a trailing assistant whose calls are still pending (so never sanitise mid-turn)', () => {
      const result = ensureValidHistory([user('q'), assistant('working', call('c9', 'slow'))]);
      expect(result.at(-1)).toEqual(placeholder('c9', 'slow'));
    });

    it('keeps both results when a call was answered twice', () => {
      const history = [user('q'), assistant('', call('c1')), tool('c1', 'one'), tool('c1', 'two')];
      expect(ensureValidHistory(history)).toEqual(history);
    });

    it('ignores an empty tool_calls list', () => {
      const history: Message[] = [user('q'), { role: 'assistant', content: 'hi', tool_calls: [] }];
      expect(ensureValidHistory(history)).toEqual(history);
    });
  });

  describe('pass 3: the first non-system message is a user message', () => {
    it('puts a continues message before a leading assistant, after the leading system messages', () => {
      expect(ensureValidHistory([system('a'), system('b'), assistant('hello')])).toEqual([
        system('a'),
        system('b'),
        continues,
        assistant('hello'),
      ]);
    });

    it('changes nothing when the first message is a user message', () => {
      expect(ensureValidHistory([user('hi'), assistant('hello')])).toEqual([user('hi'), assistant('hello')]);
    });
  });

  it('leaves consecutive same-role messages, empty content and mid-history system messages alone', () => {
    const history = [
      user('a'),
      user(''),
      assistant('x'),
      assistant(''),
      { ...system('mid'), _positional: true },
      user('b'),
    ];
    expect(ensureValidHistory(history)).toEqual(history);
  });

  it('is idempotent', () => {
    const messy = [
      tool('orphan', 'x'),
      assistant('', call('c1'), call('c2')),
      tool('c2', 'r2'),
      user('later'),
      tool('c1', 'late'),
      assistant('', call('c3')),
    ];
    const once = ensureValidHistory(messy);
    expect(ensureValidHistory(once)).toEqual(once);
    expect(once.filter((message) => message.content === '[No tool result available]')).toHaveLength(2);
    expect(once[0]).toEqual(continues);
  });
});

describe('ensureValidHistory on generated histories', () => {
  const ids = ['c1', 'c2', 'c3'];
  const arbitraryMessage = fc.oneof(
    fc.constant(user('u')),
    fc.constant(system('s')),
    fc.subarray(ids).map((calls) => assistant('a', ...calls.map((id) => call(id, `fn_${id}`)))),
    fc.option(fc.constantFrom(...ids), { nil: undefined }).map((id) => tool(id, 'r')),
  );
  const arbitraryHistory = fc.array(arbitraryMessage, { maxLength: 12 });

  it('is idempotent and never mutates its input', () => {
    fc.assert(
      fc.property(arbitraryHistory, (history) => {
        const copy = structuredClone(history);
        const once = ensureValidHistory(history);
        expect(history).toEqual(copy);
        expect(ensureValidHistory(once)).toEqual(once);
      }),
    );
  });

  it('leaves every tool call answered before the next turn and no result without an earlier call', () => {
    fc.assert(
      fc.property(arbitraryHistory, (history) => {
        const result = ensureValidHistory(history);
        const declared = new Set<string>();
        result.forEach((message, index) => {
          if (message.role === 'tool' && message.tool_call_id)
            expect(declared.has(message.tool_call_id)).toBe(true);
          for (const toolCall of message.tool_calls ?? []) {
            declared.add(toolCall.id);
            const next = result.slice(index + 1);
            const turnEnd = next.findIndex((later) => later.role === 'user' || later.role === 'assistant');
            const answers = (turnEnd === -1 ? next : next.slice(0, turnEnd)).map(
              (later) => later.tool_call_id,
            );
            expect(answers).toContain(toolCall.id);
          }
        });
        const firstTurn = result.find((message) => message.role !== 'system');
        if (firstTurn) expect(firstTurn.role).toBe('user');
      }),
    );
  });
});
