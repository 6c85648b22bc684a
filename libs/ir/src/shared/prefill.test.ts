import { describe, expect, it } from 'vitest';
import type { CompileWarning } from '../types/target-adapter.js';
import { degradePrefill, prefillInstruction } from './prefill.js';
import { WarningSink } from './warning-sink.js';

function sink(warnings: CompileWarning[]) {
  return new WarningSink('test', { onWarning: (warning) => warnings.push(warning) });
}

describe('degradePrefill', () => {
  it('appends the instruction to the last message of an allowed role and reports it', () => {
    const warnings: CompileWarning[] = [];
    const result = degradePrefill(
      [
        { role: 'user', content: 'first' },
        {
          role: 'assistant',
          content: 'a',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', content: 'r', tool_call_id: 'c' },
        { role: 'assistant', content: 'Answer:' },
      ],
      sink(warnings),
      { roles: ['user'] },
    );
    expect(result.messages).toHaveLength(3);
    expect(result.messages[0]!.content).toBe(`first\n\n${prefillInstruction('Answer:')}`);
    expect(result.unplacedInstruction).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ code: 'prefill-degraded', messageIndex: 3 })]);
  });

  it('removes an empty trailing assistant without an instruction or a warning', () => {
    const warnings: CompileWarning[] = [];
    const result = degradePrefill(
      [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '' },
      ],
      sink(warnings),
      { roles: ['user'] },
    );
    expect(result.messages).toEqual([{ role: 'user', content: 'q' }]);
    expect(warnings).toEqual([]);
  });

  it('hands the instruction back when no message can take it', () => {
    const result = degradePrefill([{ role: 'assistant', content: 'Hi' }], sink([]), { roles: ['user'] });
    expect(result.messages).toEqual([]);
    expect(result.unplacedInstruction).toBe(prefillInstruction('Hi'));
  });

  it('says the response must start verbatim with the prefill', () => {
    expect(prefillInstruction('{"a":')).toBe(
      '[System Note] SYSTEM INSTRUCTION: Your response MUST start verbatim with "{"a":" and continue from there, without any preamble.',
    );
  });
});
