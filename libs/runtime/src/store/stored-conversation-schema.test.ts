/**
 * The hand-written message checks of a load against the zod schema they stand in for, and the
 * joined parse of a load against parsing each entry: same messages, same entry blamed.
 */
import { describe, expect, it } from 'vitest';
import {
  isExactMessage,
  parseJson,
  parseStoredMessage,
  parseStoredMessages,
} from './stored-conversation-schema.js';

/** A small deterministic PRNG (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SHA = 'a'.repeat(64);
const good = {
  function: [
    { name: 'f', arguments: '{}' },
    { name: 'f', arguments: '{}', extra: 1 },
  ],
  blob: [
    { sha256: SHA, format: 'base64' },
    { sha256: SHA, format: 'data-url', dataUrlMediaType: 'image/png' },
  ],
};
const bad = {
  function: [{ arguments: '{}', name: 'f' }, { name: 1, arguments: '{}' }, { name: 'f' }, null, []],
  blob: [
    { format: 'base64', sha256: SHA },
    { sha256: 'A'.repeat(64), format: 'base64' },
    { sha256: SHA, format: 'hex' },
    { sha256: SHA, format: 'base64', extra: 1 },
    { sha256: SHA },
  ],
};

/** Values for each key: mostly valid, some invalid, so both answers come up often. */
function fieldValues(pick: <T>(values: T[]) => T): Record<string, () => unknown> {
  const object = (entries: [string, () => unknown][], drop = 0.1) =>
    Object.fromEntries(
      (pick([true, false, false]) ? [...entries].reverse() : entries)
        .filter(() => pick([true, true, true, true, true, true, true, true, true, false]) || drop === 0)
        .map(([key, value]) => [key, value()]),
    );
  const toolCall = () =>
    object([
      ['id', () => pick(['c1', 'c2', 3])],
      ['type', () => pick(['function', 'function', 'tool'])],
      ['function', () => pick([...good.function, ...good.function, ...bad.function])],
      ...(pick([false, false, true])
        ? [['meta', () => pick([1, 'x', null])] as [string, () => unknown]]
        : []),
    ]);
  const attachment = () =>
    object([
      ['mediaType', () => pick(['image/png', 'image/png', 7])],
      ['data', () => pick(['AAAA', 'AAAA', null])],
      ...(pick([true, false])
        ? [['source', () => pick(['base64', 'url', 'file-id', 'ftp'])] as [string, () => unknown]]
        : []),
      ...(pick([true, false]) ? [['filename', () => pick(['a.png', 2])] as [string, () => unknown]] : []),
      ...(pick([true, false])
        ? [['blob', () => pick([...good.blob, ...good.blob, ...bad.blob])] as [string, () => unknown]]
        : []),
      ...(pick([false, false, true]) ? [['x', () => pick([1, {}])] as [string, () => unknown]] : []),
    ]);
  return {
    role: () => pick(['system', 'user', 'assistant', 'tool', 'tool', 'wizard', 1]),
    content: () => pick(['hello', '', 'hello', null, 5]),
    name: () => pick(['ada', 'ada', 3]),
    tool_calls: () => pick([[], [toolCall()], [toolCall(), toolCall()], {}]),
    tool_call_id: () => pick(['c1', 'c1', false]),
    attachments: () => pick([[attachment()], [attachment(), attachment()], 'x']),
    providerExtra: () => pick([{ a: 1 }, 'x', null]),
    '0': () => 'indexed',
    __proto__: () => ({ polluted: true }),
  };
}

function message(next: () => number): unknown {
  const pick = <T>(values: T[]): T => values[Math.floor(next() * values.length)] as T;
  const values = fieldValues(pick);
  const order = ['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'attachments', 'providerExtra'];
  let keys = order.filter((key) => key === 'role' || key === 'content' || next() < 0.4);
  if (next() < 0.15) keys = keys.filter(() => next() < 0.8); // sometimes drop a required key
  if (next() < 0.2) keys = keys.sort(() => next() - 0.5); // sometimes out of schema order
  if (next() < 0.03) keys.push('0');
  const text = `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(values[key]?.())}`).join(',')}${
    next() < 0.02 ? `${keys.length > 0 ? ',' : ''}"__proto__":{"polluted":true}` : ''
  }}`;
  return JSON.parse(text);
}

describe('isExactMessage', () => {
  it('accepts a message only when the zod schema accepts it and returns it unchanged, keys in the same order', () => {
    const next = random(15);
    let accepted = 0;
    let rejectedByZod = 0;
    for (let round = 0; round < 6_000; round++) {
      const value = message(next);
      const text = JSON.stringify(value);
      const oracle = parseStoredMessage(text);
      if (!oracle.ok) rejectedByZod++;
      if (isExactMessage(value)) {
        accepted++;
        expect(oracle.ok, text).toBe(true);
        if (oracle.ok) expect(JSON.stringify(oracle.message), text).toBe(text);
      }
    }
    // Both sides come up often, so the comparison means something.
    expect(accepted).toBeGreaterThan(600);
    expect(rejectedByZod).toBeGreaterThan(600);
  });

  it('accepts the messages the runtime writes', () => {
    for (const value of [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', content: '42', tool_call_id: 'c' },
      { role: 'system', content: 'be brief', name: 'policy' },
      {
        role: 'user',
        content: 'look',
        attachments: [{ mediaType: 'image/png', data: '', blob: { sha256: SHA, format: 'base64' } }],
      },
      { role: 'assistant', content: 'x', reasoning: { provider: 'specific' } },
    ])
      expect(isExactMessage(value), JSON.stringify(value)).toBe(true);
  });
});

describe('parseStoredMessages', () => {
  const entries = (texts: string[]) => texts.map((text) => Buffer.from(text));
  /** The oracle: each chunk wrapped in '[' ']' and parsed alone, each message checked by zod. */
  const perChunk = (texts: string[]) => {
    const messages: unknown[] = [];
    for (const text of texts) {
      const values = parseJson(`[${text}]`);
      if (!Array.isArray(values) || values.length === 0)
        return { ok: false, index: messages.length, problem: values === undefined ? 'not JSON' : 'empty' };
      for (const value of values) {
        const parsed = parseStoredMessage(JSON.stringify(value));
        if (!parsed.ok) return { ok: false, index: messages.length, problem: parsed.problem };
        messages.push(parsed.message);
      }
    }
    return { ok: true, messages };
  };
  const ok = ['{"role":"user","content":"a"}', '{"role":"assistant","content":"é ✓ 😀"}'];

  it.each([
    ['valid entries', ok],
    ['no entries', []],
    ['chunks of several messages', [`${ok[0]},${ok[1]}`, ...ok, `${ok[1]},${ok[0]},${ok[1]}`]],
    ['keys out of schema order (zod reorders them)', [...ok, '{"content":"c","role":"user"}']],
    [
      'an unknown blob key (zod drops it)',
      [
        ...ok,
        `{"role":"user","content":"c","attachments":[{"mediaType":"m","data":"","blob":{"sha256":"${SHA}","format":"base64","x":1}}]}`,
      ],
    ],
    ['an entry that is not JSON', [...ok, '{"role":"user"', ...ok]],
    ['a chunk cut short', [`${ok[0]},${ok[1]}`, `${ok[0]},{"role":"us`]],
    ['an empty entry', [ok[0] as string, '', ok[1] as string]],
    ['an entry that is JSON but no object', [...ok, '[1]', '"x"', '3']],
    ['an entry that opens a string its neighbour closes', ['{"role":"user","content":"a', '"}', ...ok]],
    ['an invalid message', [...ok, '{"role":"wizard","content":"x"}']],
    ['an invalid message inside a chunk', [...ok, `${ok[0]},{"role":"wizard","content":"x"},${ok[1]}`]],
    ['bytes that are not UTF-8', [...ok, '{"role":"user","content":"\uFFFD"}']],
  ])('gives what parsing each chunk gives: %s', (_name, texts) => {
    expect(parseStoredMessages(entries(texts))).toEqual(perChunk(texts));
  });

  it('decodes invalid UTF-8 in an entry as parsing that entry alone does', () => {
    const broken = Buffer.concat([
      Buffer.from('{"role":"user","content":"'),
      Buffer.from([0xc3]),
      Buffer.from('"}'),
    ]);
    expect(parseStoredMessages([Buffer.from(ok[0] as string), broken])).toEqual({
      ok: true,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: '\uFFFD' },
      ],
    });
  });

  it('names the first corrupted message by its index across chunks', () => {
    expect(
      parseStoredMessages(entries([`${ok[0]},${ok[1]}`, ok[0] as string, '{"role":"user"', ok[1] as string])),
    ).toMatchObject({ ok: false, index: 3, problem: 'not JSON' });
    expect(
      parseStoredMessages(entries([`${ok[0]},${ok[1]}`, `${ok[0]},{"role":"wizard","content":""}`])),
    ).toMatchObject({ ok: false, index: 3 });
  });

  it('checks chunks one by one when the joined text gives fewer messages than expected', () => {
    // Two corrupted chunks that make one valid message when joined: each alone is not JSON.
    const halves = ['{"role":"user","content":"a","x":"}', '{"y":"}'];
    expect(parseStoredMessages(entries(halves), 2)).toMatchObject({
      ok: false,
      index: 0,
      problem: 'not JSON',
    });
  });
});
