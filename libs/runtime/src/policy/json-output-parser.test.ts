import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJsonOutputParser, extractJsonText } from './json-output-parser.js';

describe('extractJsonText', () => {
  it.each([
    ['plain JSON', '{"a":1}', '{"a":1}'],
    ['prose before and after', 'Here you go: {"a":1} Anything else?', '{"a":1}'],
    ['a json fence', 'Result:\n```json\n{"a":[1,2]}\n```\nDone.', '{"a":[1,2]}'],
    ['a bare fence', '```\n[1,2]\n```', '[1,2]'],
    ['brackets inside strings', '{"text":"a } b { c"} trailing', '{"text":"a } b { c"}'],
    ['escaped quotes', '{"q":"say \\"}\\" now"} x', '{"q":"say \\"}\\" now"}'],
    ['an unclosed value', 'start {"a": [1, 2', '{"a": [1, 2'],
  ])('finds the JSON in %s', (_label, text, expected) => {
    expect(extractJsonText(text)).toBe(expected);
  });

  it('finds nothing in plain prose', () => {
    expect(extractJsonText('just words')).toBeUndefined();
  });
});

describe('createJsonOutputParser', () => {
  const parser = createJsonOutputParser(z.object({ a: z.object({ b: z.number() }) }));

  it('reports each failure kind with a message the model can act on', () => {
    expect(parser.parse('nothing')).toMatchObject({ ok: false, failureType: 'no_content' });
    expect(parser.parse('{"a": nope}')).toMatchObject({
      ok: false,
      failureType: 'parse_error',
      issues: [expect.stringMatching(/^\[parse_error\] Invalid parser output: /)],
    });
    expect(parser.parse('{"a": {"b": "x"}}')).toMatchObject({
      ok: false,
      failureType: 'schema',
      issues: [expect.stringMatching(/^Field "a.b": /)],
    });
    expect(parser.parse('{"a": {"b": 2}}')).toEqual({ ok: true, data: { a: { b: 2 } } });
  });
});
