import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonObjectMembers } from './json-object-members.js';

/** The members as texts: key, value, key, value… */
function membersOf(text: string): string[] | undefined {
  const offsets = [-1, -1, -1, -1];
  const length = jsonObjectMembers(text, offsets);
  if (length === undefined) return undefined;
  const members: string[] = [];
  for (let index = 0; index < length; index += 3) {
    const [keyStart, colon, valueEnd] = offsets.slice(index, index + 3) as [number, number, number];
    members.push(text.slice(keyStart, colon), text.slice(colon + 1, valueEnd));
  }
  return members;
}

describe('jsonObjectMembers', () => {
  it('splits an object text into key and value texts, strings with quotes, braces and commas included', () => {
    const value = {
      type: 'tool-call',
      args: { q: 'a "quoted" {brace}, [x]', n: [1, { m: '\\' }], e: {} },
      'odd"key': '\\"',
      empty: [],
      at: 17,
    };
    expect(membersOf(JSON.stringify(value))).toEqual(
      Object.entries(value).flatMap(([key, member]) => [JSON.stringify(key), JSON.stringify(member)]),
    );
    expect(membersOf('{}')).toEqual([]);
  });

  it('refuses what is not an object text', () => {
    for (const text of ['[1]', '"x"', '{"a":1', '{"a":}', '{"a":1,}', '{a:1}', ''])
      expect(jsonObjectMembers(text)).toBeUndefined();
  });

  it('gives back every member of any JSON object, in order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), (object) => {
        const text = JSON.stringify(object);
        const members = membersOf(text) ?? [];
        const parsed = JSON.parse(text) as Record<string, unknown>;
        expect(members.length).toBe(Object.keys(parsed).length * 2);
        for (let index = 0; index < members.length; index += 2) {
          const key = JSON.parse(members[index] as string) as string;
          expect(JSON.parse(members[index + 1] as string)).toEqual(parsed[key]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
