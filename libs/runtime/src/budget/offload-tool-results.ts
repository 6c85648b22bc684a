/**
 * Offloading (ContextChef's offloader, made durable): a tool result longer than the threshold
 * is stored whole in {@link OffloadedOutputs} as it enters the conversation, and the message
 * keeps its head and tail around a marker naming the output's id and how to read the rest.
 * Summaries and later prompts only ever see the stub; the model pages through the whole with
 * `read_offloaded_output`. Deterministic: the same result gives the same id and stub on replay.
 */
import type { Message } from '@flotilla/ir';
import type { OffloadedOutputs } from './offloaded-outputs.js';

/** The name of the tool that reads offloaded output. */
export const READ_OFFLOADED_OUTPUT = 'read_offloaded_output';

/** What an offloaded tool message carries besides its stub (kept in the store, never sent). */
export interface OffloadedOutputMarker {
  /** The blob's sha256 (the `id` the read tool takes). */
  sha256: string;
  /** The length of the whole output, in characters. */
  chars: number;
}

/** The field of a tool message that holds its {@link OffloadedOutputMarker}. */
export const OFFLOADED_OUTPUT_FIELD = '_offloaded_output';

/** One result that was offloaded. */
export interface OffloadedResult {
  toolCallId: string;
  name: string;
  id: string;
  chars: number;
}

/** Characters of head and of tail a stub keeps: a quarter of the threshold, at most 500 each. */
export function stubEdge(threshold: number): number {
  return Math.min(500, Math.floor(threshold / 4));
}

/** The content that stands in for an offloaded output. */
export function offloadedStub(content: string, id: string, edge: number): string {
  const omitted = content.length - 2 * edge;
  return [
    content.slice(0, edge),
    `[… ${omitted} of ${content.length} characters offloaded as output ${id}; read them with ` +
      `${READ_OFFLOADED_OUTPUT}({ "id": "${id}", "offset": ${edge}, "length": 2000 }) …]`,
    content.slice(content.length - edge),
  ].join('\n');
}

/**
 * Returns `messages` with every tool result over `threshold` characters offloaded (the results
 * of `read_offloaded_output` itself excepted), and what was offloaded.
 */
export async function offloadToolResults(
  messages: readonly Message[],
  threshold: number,
  outputs: OffloadedOutputs,
): Promise<{ messages: Message[]; offloaded: OffloadedResult[] }> {
  const offloaded: OffloadedResult[] = [];
  const result = await Promise.all(
    messages.map(async (message) => {
      if (message.role !== 'tool' || message.content.length <= threshold) return message;
      if (message.name === READ_OFFLOADED_OUTPUT || OFFLOADED_OUTPUT_FIELD in message) return message;
      const id = await outputs.put(message.content);
      const marker: OffloadedOutputMarker = { sha256: id, chars: message.content.length };
      offloaded.push({
        toolCallId: message.tool_call_id ?? '',
        name: message.name ?? 'unknown',
        id,
        chars: message.content.length,
      });
      return {
        ...message,
        content: offloadedStub(message.content, id, stubEdge(threshold)),
        [OFFLOADED_OUTPUT_FIELD]: marker,
      };
    }),
  );
  return { messages: result, offloaded };
}
