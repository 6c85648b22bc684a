import { describe, expect, it } from 'vitest';
import { parseSse, type SseMessage } from './parse-sse.js';

async function parse(chunks: string[]): Promise<SseMessage[]> {
  async function* body() {
    for (const chunk of chunks) yield new TextEncoder().encode(chunk);
  }
  const messages: SseMessage[] = [];
  for await (const message of parseSse(body())) messages.push(message);
  return messages;
}

describe('parseSse', () => {
  it('reads event, id and data fields, skipping comments', async () => {
    expect(await parse([': hello\n\nevent: run-start\nid: 0\ndata: {"a":1}\n\n'])).toEqual([
      { event: 'run-start', id: '0', data: '{"a":1}' },
    ]);
  });

  it('joins a message split across chunks and CRLF line ends', async () => {
    expect(await parse(['event: tool-ca', 'll\r\ndata: {"b"', ':2}\r\n\r\ndata: x\n', '\n'])).toEqual([
      { event: 'tool-call', data: '{"b":2}' },
      { event: 'message', data: 'x' },
    ]);
  });

  it('joins multi-line data with newlines and drops an unfinished last message', async () => {
    expect(await parse(['data: one\ndata: two\n\ndata: cut'])).toEqual([
      { event: 'message', data: 'one\ntwo' },
    ]);
  });
});
