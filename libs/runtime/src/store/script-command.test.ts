/**
 * `ScriptCommand` writes the very bytes ioredis' own command writes, for ASCII arguments (its
 * own request) and for any other (ioredis' request).
 */
import { Command } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ScriptCommand } from './script-command.js';

const bytes = (request: string | Buffer) => (typeof request === 'string' ? Buffer.from(request) : request);
const requests = (args: (string | number)[]) => ({
  ours: bytes(new ScriptCommand('evalsha', [...args]).toWritable({})),
  ioredis: bytes(new Command('evalsha', [...args]).toWritable({})),
});

describe('ScriptCommand', () => {
  it.each([
    [
      'ASCII keys, numbers and JSON',
      ['0123abcd', 2, 'run:{r:1}:record', 'run:{r:1}:events', '{"type":"run-end","at":1}', 10_000],
    ],
    ['empty arguments', ['0123abcd', 0, '', '', 'x']],
    ['no arguments after the sha', ['0123abcd', 0]],
    ['an argument of 1,000+ bytes', ['0123abcd', 0, 'x'.repeat(12_345)]],
    ['non-ASCII text (2, 3 and 4 byte characters)', ['0123abcd', 1, 'k', '{"text":"héllo → 😀"}', 'after']],
    ['non-ASCII in the last argument', ['0123abcd', 0, 'a', 'é']],
    ['a non-ASCII last argument cut at the end of the request', ['0123abcd', 0, '😀😀😀😀']],
    ['a lone surrogate', ['0123abcd', 0, 'a\ud800b']],
  ])('writes what ioredis writes: %s', (_name, args) => {
    const { ours, ioredis } = requests(args);
    expect(ours.equals(ioredis)).toBe(true);
  });

  it('writes the same bytes for random text, ASCII or not', () => {
    const alphabet = ['a', 'Z', '0', '"', '\\', '\r', '\n', '\0', 'é', '→', '😀', '\u007f', '\u0080'];
    for (let round = 0; round < 300; round++) {
      const args: string[] = ['0123abcd', '1'];
      for (let index = 0; index < 1 + (round % 7); index++) {
        let text = '';
        const length = (round * 31 + index * 17) % 40;
        for (let char = 0; char < length; char++)
          text += alphabet[(round * 7 + index * 13 + char * 5) % (round % 2 === 0 ? 7 : alphabet.length)];
        args.push(text);
      }
      const { ours, ioredis } = requests(args);
      expect(ours.equals(ioredis)).toBe(true);
    }
  });
});
