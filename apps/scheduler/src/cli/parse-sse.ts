/** One Server-Sent Events message. */
export interface SseMessage {
  event: string;
  id?: string;
  data: string;
}

/**
 * Parses a Server-Sent Events byte stream into messages (comments and empty data skipped).
 * Handles `\n` and `\r\n` line ends and messages split across chunks.
 */
export async function* parseSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let message: { event?: string; id?: string; data: string[] } = { data: [] };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n');
    while (end >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf('\n');
      if (line === '') {
        if (message.data.length > 0) yield toMessage(message);
        message = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') message.data.push(value);
      else if (field === 'event') message.event = value;
      else if (field === 'id') message.id = value;
    }
  }
}

function toMessage(message: { event?: string; id?: string; data: string[] }): SseMessage {
  const result: SseMessage = { event: message.event ?? 'message', data: message.data.join('\n') };
  if (message.id !== undefined) result.id = message.id;
  return result;
}
