import type { ModelDelta, ModelResponse } from '../model/model-adapter.js';

/**
 * Reports a finished response through `onDelta` the way a streaming provider would: reasoning
 * and text word by word (whitespace kept, so the deltas join back to the exact text), then one
 * `tool-call-delta` per call carrying its id, name and complete arguments.
 */
export function streamResponseDeltas(response: ModelResponse, onDelta: (delta: ModelDelta) => void): void {
  const { message } = response;
  for (const text of wordChunks(message.thinking?.thinking ?? '')) onDelta({ type: 'reasoning-delta', text });
  for (const text of wordChunks(message.content)) onDelta({ type: 'text-delta', text });
  (message.tool_calls ?? []).forEach((call, index) => {
    onDelta({
      type: 'tool-call-delta',
      index,
      id: call.id,
      name: call.function.name,
      argumentsDelta: call.function.arguments,
    });
  });
}

function wordChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}
